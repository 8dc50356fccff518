import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { SkilldexError } from '../../core/errors/skilldex-error.ts';
import { INDEX_FILE, INDEX_SCHEMA_FILE } from './layout.ts';
import { REGISTRY_RECORD } from './output-folder.ts';

/**
 * An output folder a build must not write into: the registry's own sources, or a folder that
 * holds them. A build into the root or the skills folder would publish its own output as skill
 * files on the next build (every skill's digest changing each time), and a build inside the
 * skills folder would be discovered as a skill.
 *
 * @example
 * buildRegistry({ root: '.', outDir: '.' }); // throws OUTPUT_FOLDER_REFUSED
 */
export class OutputPlaceError extends SkilldexError<'OUTPUT_FOLDER_REFUSED'> {
  override name = 'OutputPlaceError';

  constructor(message: string) {
    super('OUTPUT_FOLDER_REFUSED', message, { hint: 'choose an output folder outside the skills folder, such as dist/ (the default)' });
  }
}

/** How every index.json a build writes begins (json-text.ts: two-space indent, `$schema` first). */
const INDEX_OPENING = `{\n  "$schema": "${INDEX_SCHEMA_FILE}",`;

/** Whether `path` is a regular file that begins as a built index.json does. Read without following a link or waiting on a FIFO. */
function isBuiltIndex(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return false;
  }
  try {
    if (!fstatSync(fd).isFile()) return false;
    const head = Buffer.alloc(INDEX_OPENING.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.toString('utf8') === INDEX_OPENING;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * Why `skilldex build` must not write into `outDir` as it is; undefined when it may. A build replaces the
 * files it writes (index.json, skills/<name>.json, …) wherever it writes them, so a folder holding
 * anything must be one a build wrote: one with the record a build leaves (.skilldex-build.json),
 * or whose index.json a build wrote. A missing or empty folder is fine, and so is one holding only
 * `.git` (a gh-pages worktree). The site build has its own rule (scripts/build.ts): it writes the
 * registry into a folder it has readied, beside the pages and the runtime it adds itself.
 */
export function foreignOutputProblem(outDir: string): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(outDir);
  } catch {
    return undefined; // missing, or not a folder: creating it reports that
  }
  const held = entries.filter((e) => e !== '.git').sort();
  if (held.length === 0 || held.includes(REGISTRY_RECORD) || isBuiltIndex(join(outDir, INDEX_FILE))) return undefined;
  const named = held.slice(0, 3).map((e) => `'${e}'`).join(', ') + (held.length > 3 ? ` and ${held.length - 3} more` : '');
  return `the output folder ${outDir} holds files no Skilldex build wrote (${named}): a build replaces the files it writes there, and would replace yours`;
}
