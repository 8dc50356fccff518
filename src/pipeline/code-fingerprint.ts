import { createHash } from 'node:crypto';
import { lstatSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleExtension } from '../core/module-file.ts';
import { VERSION } from '../core-node/package-version.ts';

/** src/ in a checkout, lib/ in the npm package: both hold pipeline/, scanner/, core/ and core-node/. */
const codeDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What decides a build's output besides its input: the parser, the rules, the scanner and the
 * emitter, and the CLI, whose bundle in the npm package (lib/cli/chunks/) holds what actually
 * runs, dependencies included.
 */
const BUILD_CODE = ['pipeline', 'scanner', 'core', 'core-node', 'cli'];

let fingerprint: string | undefined;

/**
 * The package's version, Node's, and the size and mtime of every module of the build code (a few
 * hundred stats), and in a checkout of npm's record of the installed dependencies: what a build
 * recorded with other code is never reused, even in a working copy being edited. The version
 * counts too because npm gives every file it installs the same mtime, so an upgrade whose
 * modules kept their sizes would otherwise look like the same code.
 */
export function codeFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256');
  hash.update(`${VERSION}\0${process.version}\n`);
  const extension = moduleExtension(import.meta.url);
  const walk = (dir: string) => {
    if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (entry.name.endsWith(extension)) {
        const info = lstatSync(abs);
        hash.update(`${relative(codeDir, abs)}\0${info.size}\0${info.mtimeMs}\n`);
      }
    }
  };
  for (const part of BUILD_CODE) walk(join(codeDir, part));
  const dependencies = lstatSync(join(codeDir, '..', 'node_modules', '.package-lock.json'), { throwIfNoEntry: false });
  if (dependencies) hash.update(`dependencies\0${dependencies.size}\0${dependencies.mtimeMs}\n`);
  fingerprint = hash.digest('hex');
  return fingerprint;
}
