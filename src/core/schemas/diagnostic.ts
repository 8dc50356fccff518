import { z } from 'zod';

/** The validator's severities: an `error` keeps a skill out, a `warning` does not. */
export const ValidatorSeverity = z.enum(['error', 'warning']);
export type ValidatorSeverity = z.infer<typeof ValidatorSeverity>;

/**
 * The security scanner's risk scale, least to most serious. A skill's scan verdict is built on it
 * (any `critical` → `fail`, `high` → `warn`, `warn` → `review`); `info` never changes it.
 */
export const RiskSeverity = z.enum(['info', 'warn', 'high', 'critical']);
export type RiskSeverity = z.infer<typeof RiskSeverity>;

/** A diagnostic's severity: on the validator's scale, or on the scanner's risk scale for a scan finding. */
export const Severity = z.enum([...ValidatorSeverity.options, ...RiskSeverity.options]);
export type Severity = z.infer<typeof Severity>;

/** How much a rule's finding matters. `off` only exists in configuration: it silences a rule. */
export const RuleSeverity = z.enum([...ValidatorSeverity.options, 'off']);
export type RuleSeverity = z.infer<typeof RuleSeverity>;

/** A secondary place that explains a diagnostic, such as the other skill of a duplicate name. */
export const RelatedLocation = z.object({
  /** Path relative to the registry root, always with `/` separators. */
  file: z.string(),
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  /** What is at this place, e.g. `'pdf' is declared here`. */
  message: z.string(),
});
export type RelatedLocation = z.infer<typeof RelatedLocation>;

/**
 * One problem found in a skill, located precisely enough that a contributor can fix a pull
 * request from this line alone: the one diagnostic type of every rule, whichever engine reports
 * it, and what every output format (human, JSON, GitHub, SARIF) prints. A validator or
 * pull-request rule reports on its scale (`error`, `warning`) with a hint; a scanner rule on the
 * risk scale, with the evidence it matched and its documentation link. Each published shape is a
 * refinement of this one: {@link ValidatorDiagnostic} (a manifest's `diagnostics`) and `Finding`
 * (a manifest's `scan.findings`, ./scan.ts).
 */
export const Diagnostic = z.object({
  /** Stable rule id, e.g. `name/folder-mismatch`; every rule is listed in docs/rules.md. */
  rule: z.string(),
  severity: Severity,
  /** Path relative to the registry root (for a finding: to the skill folder), always with `/` separators. */
  file: z.string(),
  /** 1-based line. */
  line: z.number().int().min(1),
  /** 1-based column. */
  column: z.number().int().min(1),
  /** The matched excerpt, with hidden characters made visible (e.g. `<U+202E>`); scan findings carry it. */
  evidence: z.string().optional(),
  message: z.string(),
  /** Where the rule is documented, e.g. `docs/security.md#exec-download-pipe-shell`; scan findings carry it. */
  docs: z.string().optional(),
  /** What to do about it. */
  hint: z.string().optional(),
  /** The skill the problem belongs to, when known. */
  skill: z.string().optional(),
  /** Other places involved in the same problem; the problem is reported once, here. */
  related: z.array(RelatedLocation).optional(),
  /**
   * Set when a scan finding was answered: by the author, with a `skilldex-scan: allow` directive in
   * the file (lowered to `warn` at most), or by the registry's `scan.allow` list (lowered to `info`).
   * The finding is always kept, so the answer is visible on the skill's page and in its manifest.
   */
  allowed: z.object({ by: z.enum(['author', 'registry']), reason: z.string() }).optional(),
});
export type Diagnostic = z.infer<typeof Diagnostic>;

/**
 * A diagnostic of the validator or the pull-request checks, as `validate --format json` prints it
 * and a manifest publishes it (`diagnostics`): on the validator's scale, with no scan fields.
 */
export const ValidatorDiagnostic = Diagnostic.pick({ rule: true, severity: true, file: true, line: true, column: true, message: true, hint: true, skill: true, related: true })
  .extend({ severity: ValidatorSeverity })
  .meta({ id: 'Diagnostic' });
export type ValidatorDiagnostic = z.infer<typeof ValidatorDiagnostic>;
