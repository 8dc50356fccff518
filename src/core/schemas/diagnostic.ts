import { z } from 'zod';

/** The validator's severities: an `error` keeps a skill out, a `warning` does not. */
export const ValidatorSeverity = z.enum(['error', 'warning']);
export type ValidatorSeverity = z.infer<typeof ValidatorSeverity>;

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
 * request from this line alone.
 */
export const Diagnostic = z
  .object({
    /** Stable rule id, e.g. `name/folder-mismatch`. Documented in the README rules table. */
    rule: z.string(),
    severity: ValidatorSeverity,
    /** Path relative to the registry root, always with `/` separators. */
    file: z.string(),
    /** 1-based line. */
    line: z.number().int().min(1),
    /** 1-based column. */
    column: z.number().int().min(1),
    message: z.string(),
    /** What to do about it. */
    hint: z.string().optional(),
    /** The skill the problem belongs to, when known. */
    skill: z.string().optional(),
    /** Other places involved in the same problem; the problem is reported once, here. */
    related: z.array(RelatedLocation).optional(),
  })
  .meta({ id: 'Diagnostic' });
export type Diagnostic = z.infer<typeof Diagnostic>;
