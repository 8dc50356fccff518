import { z } from 'zod';

/** Severity of one security finding. */
export const FindingSeverity = z.enum(['info', 'warn', 'high', 'critical']);
export type FindingSeverity = z.infer<typeof FindingSeverity>;

/** What the scanner concludes about a whole skill. `fail` blocks the build by default. */
export const ScanVerdict = z.enum(['pass', 'review', 'warn', 'fail']);
export type ScanVerdict = z.infer<typeof ScanVerdict>;

export const Finding = z
  .object({
    /** Stable rule id, e.g. `exec/download-pipe-shell`. */
    rule: z.string(),
    severity: FindingSeverity,
    /** Path inside the skill folder, `/`-separated. */
    file: z.string(),
    line: z.number().int().min(1),
    column: z.number().int().min(1),
    /** The matched excerpt, with hidden characters made visible (e.g. `<U+202E>`). */
    evidence: z.string(),
    /** Why this matters and how to fix it. */
    message: z.string(),
    /** Documentation anchor for the rule, e.g. `/security/#exec-download-pipe-shell`. */
    docs: z.string(),
    /**
     * Set when the finding was answered: by the author, with a `skilldex-scan: allow` directive in
     * the file (lowered to `warn` at most), or by the registry's `scan.allow` list (lowered to `info`).
     * The finding is always kept, so the answer is visible on the skill's page and in its manifest.
     */
    allowed: z.object({ by: z.enum(['author', 'registry']), reason: z.string() }).optional(),
  })
  .meta({ id: 'Finding' });
export type Finding = z.infer<typeof Finding>;

export const ScanResult = z
  .object({
    verdict: ScanVerdict,
    /** Version of the rule set that produced the findings. */
    rulesVersion: z.string(),
    findings: z.array(Finding),
  })
  .meta({ id: 'ScanResult' });
export type ScanResult = z.infer<typeof ScanResult>;
