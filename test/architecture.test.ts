/**
 * The layout is part of the design: source folders must not be mistaken for output by the common
 * .gitignore templates (Node, Python, Go — their patterns that can match a folder or file name
 * are in test/fixtures/gitignore/templates.gitignore), or tools hide them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWindowsDeviceName } from '../src/core/paths.ts';

const REPO = join(import.meta.dirname, '..');
const TEMPLATES = join(REPO, 'test/fixtures/gitignore/templates.gitignore');

describe('source layout', () => {
  it('no file under src/ is ignored by the Node, Python or Go .gitignore templates', () => {
    const files = execFileSync('git', ['ls-files', 'src'], { cwd: REPO, encoding: 'utf8' });
    expect(files.split('\n').filter(Boolean).length).toBeGreaterThan(100);
    let ignored = '';
    try {
      ignored = execFileSync('git', ['-c', `core.excludesFile=${TEMPLATES}`, 'check-ignore', '--no-index', '--stdin', '-v'], { cwd: REPO, encoding: 'utf8', input: files });
    } catch (error) {
      // check-ignore exits 1 when nothing is ignored: what this test wants.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(ignored.split('\n').filter(Boolean)).toEqual([]);
  });

  it('no path in the repository is a Windows device name, which would break a Windows checkout of Skilldex itself', () => {
    // Fixtures that need one (name/windows-device, files/path) create it in the test's temporary copy.
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((path) => path.split('/').some(isWindowsDeviceName))).toEqual([]);
  });

  it("the README's layout section names every source folder, and only folders that exist", () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const block = readme.slice(readme.indexOf('## Layout')).match(/```\n([\s\S]*?)```/)?.[1] ?? '';
    // Rows are `src/<area>/  text`, continued on indented lines; an area's sub-folders are named in its text.
    const rows = new Map<string, string>();
    let area = '';
    for (const line of block.split('\n')) {
      const head = line.match(/^(\S+\/)\s/);
      if (head) rows.set((area = head[1]!), line);
      else if (area) rows.set(area, `${rows.get(area)} ${line}`);
    }
    const src = join(REPO, 'src');
    for (const top of readdirSync(src, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      const row = rows.get(`src/${top.name}/`);
      expect(row, `src/${top.name}/ is missing from the README's layout`).toBeDefined();
      for (const sub of readdirSync(join(src, top.name), { withFileTypes: true }).filter((d) => d.isDirectory())) {
        expect(row, `src/${top.name}/${sub.name}/ is not named in its README layout row`).toContain(`${sub.name}/`);
      }
    }
    for (const [folder, row] of rows) {
      expect(existsSync(join(REPO, folder)), `the README's layout names ${folder}, which does not exist`).toBe(true);
      if (!folder.startsWith('src/')) continue;
      for (const named of row.matchAll(/(?<![\w/.-])([a-z][\w-]*)\/(?!\w)/g)) {
        if (`${named[1]}/` === folder.slice(4)) continue;
        expect(existsSync(join(REPO, folder, named[1]!)), `the README's layout row for ${folder} names ${named[1]}/, which is not a folder there`).toBe(true);
      }
    }
  });
});
