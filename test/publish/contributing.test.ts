import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..', '..');
const CONTRIBUTING_FILE = join(REPO, 'CONTRIBUTING.md');

/** GitHub's heading slugs: lowercase, punctuation dropped, spaces → '-'. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');

describe('CONTRIBUTING.md', () => {
  it('links only to anchors that exist in the file', async () => {
    const text = await readFile(CONTRIBUTING_FILE, 'utf8');
    const targets = new Set([
      ...[...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1] ?? '')),
      ...[...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]),
    ]);
    const links = [...text.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(5);
    expect(links.filter((l) => !targets.has(l))).toEqual([]);
  });

  it('mentions only flags the commands really have', async () => {
    const text = await readFile(CONTRIBUTING_FILE, 'utf8');
    const flags: Record<string, string[]> = {};
    for (const name of ['new', 'validate', 'convert', 'migrate']) {
      const command = (await import(`../../src/cli/commands/${name}.ts`)).default as { args: Record<string, unknown> };
      flags[name] = Object.keys(command.args);
    }
    for (const match of text.matchAll(/skilldex (new|validate|convert|migrate)\b([^`\n]*)/g)) {
      const [, command, rest] = match as unknown as [string, string, string];
      for (const flag of rest.matchAll(/--([a-z-]+)/g)) expect(flags[command], `skilldex ${command} --${flag[1]}`).toContain(flag[1]?.replace(/^no-/, ''));
    }
  });

  it('comes with a pull-request template that asks for a local validate and a version bump', async () => {
    const template = await readFile(join(REPO, '.github/pull_request_template.md'), 'utf8');
    expect(template).toContain('npx skilldex validate');
    expect(template).toContain('higher `version`');
  });
});
