import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/**
 * Skilldex's version, from package.json: two folders up both from src/core-node/ (checkout) and
 * lib/core-node/ (npm package). The CLI prints it; the build code's fingerprint includes it.
 */
export const VERSION = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;

/** The folder holding Skilldex's package.json, docs/ and schemas/: the checkout, or node_modules/skilldex/. */
export const PACKAGE_ROOT = dirname(fileURLToPath(PACKAGE_JSON));
