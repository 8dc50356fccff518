import { describe, expect, it } from 'vitest';
import { changelogSections, versionKey } from '../../src/core/changelog.ts';

describe('changelogSections', () => {
  it('reads Keep a Changelog headings and their common variants', () => {
    const text = [
      '# Changelog',
      '',
      'All notable changes.',
      '',
      '## [Unreleased]',
      '- Not yet.',
      '',
      '## [1.2.0] - 2026-01-02',
      '### Added',
      '- Ranges.',
      '',
      '## v1.1.0',
      '- Faster.',
      '',
      '## 1.0.1 (2025-12-01)',
      '- Fix.',
      '',
      '## Version 1.0.0',
      '- First.',
    ].join('\n');
    const sections = changelogSections(text);
    expect([...sections.keys()]).toEqual(['1.2.0', '1.1.0', '1.0.1', '1.0.0']);
    expect(sections.get('1.2.0')).toBe('### Added\n- Ranges.');
    expect(sections.get('1.1.0')).toBe('- Faster.');
    expect(sections.get('1.0.0')).toBe('- First.');
  });

  it('ends a section at the next heading of its level or higher, not at a deeper one', () => {
    const sections = changelogSections('# 2.0.0\n## Breaking\n- Renamed.\n# 1.0.0\nFirst.\n## Notes\nKept.\n');
    expect(sections.get('2.0.0')).toBe('## Breaking\n- Renamed.');
    expect(sections.get('1.0.0')).toBe('First.\n## Notes\nKept.');
  });

  it('ignores headings inside fenced code, keeps the first section of a version, and drops empty ones', () => {
    const text = '## 1.1.0\n```md\n## 9.9.9\n```\nText.\n## 1.1.0\nAgain.\n## 1.0.0\n\n## 0.9.0\n~~~\n## 0.1.0\n~~~\n';
    const sections = changelogSections(text);
    expect(sections.get('1.1.0')).toBe('```md\n## 9.9.9\n```\nText.');
    expect(sections.has('9.9.9')).toBe(false);
    expect(sections.has('1.0.0')).toBe(false);
    expect(sections.get('0.9.0')).toBe('~~~\n## 0.1.0\n~~~');
  });

  it('handles CRLF, a byte-order mark, pre-releases and build metadata', () => {
    const sections = changelogSections('\uFEFF## [2.0.0-rc.1]\r\n- Try it.\r\n## 1.0.0+build.7 - today\r\n- Built.\r\n');
    expect(sections.get('2.0.0-rc.1')).toBe('- Try it.');
    expect(sections.get('1.0.0')).toBe('- Built.');
  });

  it('does not take a heading that merely starts with digits for a version', () => {
    expect([...changelogSections('## 1.2.0beta\nx\n## 2026 plans\ny\n## 1.2\nz\n').keys()]).toEqual([]);
  });
});

describe('versionKey', () => {
  it('drops a leading v and build metadata, as semver precedence does', () => {
    expect(['1.2.0', 'v1.2.0', '=1.2.0', '1.2.0+sha.5', ' 1.2.0 '].map(versionKey)).toEqual(['1.2.0', '1.2.0', '1.2.0', '1.2.0', '1.2.0']);
    expect(versionKey('1.2.0-rc.1')).toBe('1.2.0-rc.1');
  });

  it('reads a changelog with a heading line of a million spaces, and a version with a run of +', () => {
    const started = performance.now();
    const sections = changelogSections(`# Changelog\n\n## 1.0.0\n- First.\n\n## a${' '.repeat(1_000_000)}b\n- Not a version.\n`);
    expect([...sections]).toEqual([['1.0.0', '- First.']]);
    expect(versionKey(`1.0.0${'+'.repeat(1_000_000)}x`)).toBe('1.0.0');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
