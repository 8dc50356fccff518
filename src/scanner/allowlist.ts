import type { ScanAllowance } from '../core/schemas/config.ts';
import type { ScanResult } from '../core/schemas/scan.ts';
import { verdictOf } from './verdict.ts';

/**
 * Applies the registry's `scan.allow` list to one skill's scan: a finding whose skill, rule and
 * file match an entry, while the file still has the digest the entry records, drops to `info`
 * and carries the reason. Nothing is removed, so the page and the manifest still show it.
 *
 * @example applyAllowlist(result, 'pdf', new Map([['SKILL.md', 'sha256:…']]), config.scan.allow)
 */
export function applyAllowlist(result: ScanResult, skill: string, digests: ReadonlyMap<string, string>, allow: readonly ScanAllowance[]): ScanResult {
  const entries = allow.filter((a) => a.skill === skill);
  if (entries.length === 0) return result;
  let changed = false;
  const findings = result.findings.map((f) => {
    const entry = entries.find((a) => a.rule === f.rule && a.file === f.file && digests.get(f.file) === a.digest);
    if (!entry) return f;
    changed = true;
    return { ...f, severity: 'info' as const, allowed: { by: 'registry' as const, reason: entry.reason }, message: `${f.message} Allowed by the registry: "${entry.reason}".` };
  });
  return changed ? { ...result, findings, verdict: verdictOf(findings) } : result;
}
