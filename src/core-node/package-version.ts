import { readFileSync } from 'node:fs';

/**
 * Skilldex's version, from package.json: two folders up both from src/core-node/ (checkout) and
 * lib/core-node/ (npm package). The CLI prints it; the build code's fingerprint includes it.
 */
export const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
