import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { ScanInput } from '../../src/scanner/index.ts';

export const FIXTURES = join(import.meta.dirname, '../fixtures/security');

/** Reads a fixture skill folder the way the CLI does: bytes as they are, symlinks listed, not followed. */
export function readFixtureSkill(dir: string, name: string, knownNames: readonly string[] = []): ScanInput {
  const files: ScanInput['files'][number][] = [];
  const symlinks: { path: string; target?: string }[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs).sort()) {
      const full = join(abs, entry);
      const path = rel ? `${rel}/${entry}` : entry;
      const s = lstatSync(full);
      if (s.isSymbolicLink()) symlinks.push({ path, target: readlinkSync(full) });
      else if (s.isDirectory()) walk(full, path);
      else files.push({ path, bytes: new Uint8Array(readFileSync(full)) });
    }
  };
  walk(dir, '');
  return { name, files, symlinks, knownNames };
}

export const caseNames = (folder: string): string[] =>
  readdirSync(join(FIXTURES, folder), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
