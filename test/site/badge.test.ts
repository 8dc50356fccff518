import { describe, expect, it } from 'vitest';
import { badgeSvg, skillBadges } from '../../src/site/catalog/badge.ts';

describe('badge SVG', () => {
  it('escapes hostile text, drops control characters and caps the length', () => {
    const svg = badgeSvg('skill', 'v1<script>alert(1)</script>"\u001b[2J\u202e', 'blue');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
    expect(svg.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u202e]/u);
    expect(badgeSvg('skill', 'x'.repeat(500), 'blue')).toContain(`${'x'.repeat(39)}…</text>`);
  });

  it('gives the same bytes for the same input, wider for longer text', () => {
    expect(badgeSvg('scan', 'pass', 'green')).toBe(badgeSvg('scan', 'pass', 'green'));
    const width = (svg: string) => Number(/width="(\d+)"/.exec(svg)![1]);
    expect(width(badgeSvg('skill', 'v10.20.30', 'blue'))).toBeGreaterThan(width(badgeSvg('skill', 'v1', 'blue')));
  });

  it('colours the scan badge by verdict', () => {
    const [, pass] = skillBadges({ version: '1.0.0', verdict: 'pass' });
    const [, fail] = skillBadges({ version: '1.0.0', verdict: 'fail' });
    const [, none] = skillBadges({ version: '1.0.0' });
    expect(pass!.svg).toContain('#1a7f37');
    expect(fail!.svg).toContain('#cf222e');
    expect(none!.alt).toBe('security scan: not scanned');
  });
});
