import { readFileSync } from 'node:fs';

/** package.json is two folders up both from src/cli/ (checkout) and lib/cli/ (npm package). */
export const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
