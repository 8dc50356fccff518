import type { SkillFile } from '../../core/schemas/manifest.ts';

/** Folder levels the file tree indents; below them, a file's row names the rest of its path. */
export const TREE_DEPTH = 6;

export type TreeRow = { kind: 'dir'; path: string; name: string; depth: number } | { kind: 'file'; file: SkillFile; name: string; depth: number };

/**
 * A skill's files as the rows of a tree, sorted by path: each folder once, before its contents,
 * indented by its depth. Past {@link TREE_DEPTH} levels there are no more folder rows (the page
 * has only so much width): a deeper file sits at that depth under the last folder shown, named by
 * the rest of its path (`g/h/file.txt`), so it never looks like a sibling of its own folder.
 *
 * @example
 * fileTreeRows([{ path: 'scripts/run.py', … }]) // [{ kind: 'dir', path: 'scripts', name: 'scripts', depth: 0 }, { kind: 'file', name: 'run.py', depth: 1, … }]
 */
export function fileTreeRows(files: readonly SkillFile[]): TreeRow[] {
  const rows: TreeRow[] = [];
  const seen = new Set<string>();
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const parts = file.path.split('/');
    const folders = Math.min(parts.length - 1, TREE_DEPTH);
    for (let i = 1; i <= folders; i++) {
      const dir = parts.slice(0, i).join('/');
      if (seen.has(dir)) continue;
      seen.add(dir);
      rows.push({ kind: 'dir', path: dir, name: parts[i - 1]!, depth: i - 1 });
    }
    rows.push({ kind: 'file', file, name: parts.slice(folders).join('/'), depth: folders });
  }
  return rows;
}
