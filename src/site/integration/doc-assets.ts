import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { makeFolder } from '../../core-node/make-folder.ts';

/**
 * Copies the files beside the docs pages to the site's /docs/, so their images and example files
 * resolve: regular files only, no dot-paths, and neither Markdown (rendered into pages instead)
 * nor HTML (which could take the place of a rendered page).
 */
export function copyDocAssets(from: string, to: string): void {
  if (!existsSync(from)) return;
  for (const entry of readdirSync(from, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || /\.(md|html?)$/i.test(entry.name)) continue;
    const relative = path.relative(from, path.join(entry.parentPath, entry.name));
    if (relative.split(path.sep).some((segment) => segment.startsWith('.'))) continue;
    makeFolder(path.dirname(path.join(to, relative)));
    copyFileSync(path.join(from, relative), path.join(to, relative));
  }
}
