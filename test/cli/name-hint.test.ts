/**
 * The real CLI, spawned, on skill folders with hostile names: the name/folder-mismatch and
 * name/required hints only ever suggest a valid skill name (kebab-case a-z0-9, single inner
 * hyphens, at most 64 characters), derived from the folder, and the folder's control
 * characters are shown, not sent to the terminal.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSkilldex } from '../helpers/cli.ts';

interface Report {
  diagnostics: { file: string; rule: string; message: string; hint?: string }[];
}

/** folder name → the `name:` line of its SKILL.md (none: no name). */
const CASES: Record<string, string | undefined> = {
  'Security Scanning Tools': 'security-scanning-tools',
  'Data Cleaner': 'scanner',
  PDFTools_v2: 'PDF Tools',
  'Überprüfung der Daten': 'Überprüfung',
  '日本語': '日本語',
  '--a--b--': 'A B',
  '\u001b[31mred\u001b[0m': 'red',
  'evil\nfolder': 'Evil Folder',
  [`Very ${'long '.repeat(20)}Folder`]: 'Very Long Folder!',
  'No Name Here': undefined,
};

let cwd: string;
let report: Report;
let human: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'skilldex-names-'));
  for (const [folder, name] of Object.entries(CASES)) {
    await mkdir(join(cwd, folder));
    await writeFile(join(cwd, folder, 'SKILL.md'), `---\n${name === undefined ? '' : `name: "${name}"\n`}description: Checks how folder names are suggested.\n---\n# Body\n\nSteps.\n`);
  }
  const json = await runSkilldex(cwd, ['validate', '--no-scan', '--format', 'json', '--', ...Object.keys(CASES)]);
  expect(json.status, json.stderr).toBe(1);
  report = JSON.parse(json.stdout) as Report;
  human = (await runSkilldex(cwd, ['validate', '--no-scan', '--', ...Object.keys(CASES)])).stdout;
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

const hintFor = (folder: string, rule: string) => report.diagnostics.find((d) => d.file === `${folder}/SKILL.md` && d.rule === rule)?.hint;

describe('name hints for hostile folder names (spawned)', () => {
  it('suggest the folder name made valid, or the declared name when that is valid', () => {
    expect(hintFor('Security Scanning Tools', 'name/folder-mismatch')).toBe("rename the folder to 'security-scanning-tools'");
    expect(hintFor('Data Cleaner', 'name/folder-mismatch')).toBe("rename the folder to 'scanner'");
    expect(hintFor('PDFTools_v2', 'name/folder-mismatch')).toBe("rename the folder to 'pdf-tools-v2' and set `name: pdf-tools-v2`");
    expect(hintFor('Überprüfung der Daten', 'name/folder-mismatch')).toBe("rename the folder to 'uberprufung-der-daten' and set `name: uberprufung-der-daten`");
    expect(hintFor('--a--b--', 'name/folder-mismatch')).toBe("rename the folder to 'a-b' and set `name: a-b`");
    expect(hintFor('\u001b[31mred\u001b[0m', 'name/folder-mismatch')).toBe("rename the folder to 'red'");
    expect(hintFor('No Name Here', 'name/required')).toBe("add a kebab-case `name:` and give the folder the same name, e.g. 'no-name-here'");
  });

  it('say what a valid name looks like when nothing can be derived', () => {
    expect(hintFor('日本語', 'name/folder-mismatch')).toBeUndefined(); // the names are equal
    expect(hintFor('日本語', 'name/charset')).toBeDefined();
  });

  it('never suggest an invalid name: every suggestion is kebab-case and at most 64 characters', () => {
    const suggestions = report.diagnostics
      .filter((d) => d.rule === 'name/folder-mismatch' || d.rule === 'name/required')
      .flatMap((d) => [...(d.hint ?? '').matchAll(/(?:to '|e\.g\. ')([^']*)'|`name: ([^`]*)`/g)].map((m) => m[1] ?? m[2]));
    expect(suggestions.length).toBeGreaterThanOrEqual(10);
    for (const s of suggestions) {
      expect(s).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(s!.length).toBeLessThanOrEqual(64);
    }
    const long = hintFor(`Very ${'long '.repeat(20)}Folder`, 'name/folder-mismatch');
    expect(long).toMatch(/^rename the folder to '(very-(long-)+long)' and set `name: \1`$/);
  });

  it('show control characters of a folder name as escapes in human output', () => {
    expect(human).not.toContain('\u001b');
    expect(human).toContain("␛[31mred␛[0m/SKILL.md:2:7  name/folder-mismatch  error  Directory name '␛[31mred␛[0m' must match skill name 'red'");
    expect(human).toContain('evil␊folder/SKILL.md:2:7  name/folder-mismatch');
  });
});
