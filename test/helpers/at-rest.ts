import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Dates a folder and everything below it a day back, as files long at rest are: the build cache
 * trusts nothing changed within two seconds of the build that recorded it (a write could be in
 * progress), so a test that wants cache hits right after writing its files needs this.
 */
export function dateBack(dir: string): void {
  const past = new Date(Date.now() - 86_400_000);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) utimesSync(join(entry.parentPath, entry.name), past, past);
  utimesSync(dir, past, past);
}
