import { readdirSync, readFileSync } from 'node:fs';

/**
 * Host processes whose command line contains `needle`. A killed process whose parent has not
 * reaped it yet is a zombie: dead, though still listed, so `Z` counts as gone. (In containers whose
 * PID 1 does not reap orphans, a killed grandchild stays a zombie.)
 */
export function processesWith(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}
