import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeFolder } from './make-folder.ts';

/**
 * A name beside `file` that nothing else uses, for content on its way there or set aside from it
 * (`.SKILL.md.<pid>.<random>.<purpose>`): a dot-file, so a listing of the folder passes it over,
 * unique to this process and call, so concurrent commands never share one.
 */
export function temporaryBeside(file: string, purpose: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2)}.${purpose}`);
}

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
