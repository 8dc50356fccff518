import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeFolder } from './make-folder.ts';

/**
 * Writes `file` whole or not at all: into a temporary file beside it (unique to this process and
 * call, so concurrent writers never share one), renamed into place. A reader, another build among
 * them, sees the old bytes or the new ones, never half a file. Creates the folder; throws when it
 * cannot write, and then leaves no temporary file behind (a folder in the file's place made every
 * build leave one).
 */
export function writeFileAtomically(file: string, data: string | Uint8Array): void {
  makeFolder(path.dirname(file));
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
