import { describe, expect, it } from 'vitest';
import { fileTreeRows, TREE_DEPTH } from '../../src/site/catalog/file-tree.ts';

const file = (path: string) => ({ path, size: 1, digest: `sha256:${'0'.repeat(64)}` });
const shape = (paths: string[]) => fileTreeRows(paths.map(file)).map((r) => `${'  '.repeat(r.depth)}${r.name}${r.kind === 'dir' ? '/' : ''}`);

describe("a skill page's file tree", () => {
  it('lists each folder once, before its contents, in path order', () => {
    expect(shape(['scripts/run.py', 'SKILL.md', 'references/b.md', 'references/a.md'])).toEqual(['SKILL.md', 'references/', '  a.md', '  b.md', 'scripts/', '  run.py']);
  });

  it(`indents ${TREE_DEPTH} folder levels and names the rest of a deeper path, so no file looks like its folder's sibling`, () => {
    const rows = shape(['a/b/c/d/e/f/g/h/deep.txt', 'a/b/c/d/e/f/g/other.txt', 'a/b/c/d/e/f/six.txt', 'a/b/c/d/e/five.txt']);
    expect(rows).toEqual(['a/', '  b/', '    c/', '      d/', '        e/', '          f/', '            g/h/deep.txt', '            g/other.txt', '            six.txt', '          five.txt']);
    expect(Math.max(...fileTreeRows(['a/b/c/d/e/f/g/h/i/j.txt'].map(file)).map((r) => r.depth))).toBe(TREE_DEPTH);
  });
});
