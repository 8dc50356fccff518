import { RegistryError } from '../core/errors/registry-error.ts';
import { visibleControls } from '../core/control-chars.ts';

/** A skill as a caller names it: `name`, or `name@<version or range>` (`pdf@1.2.0`, `pdf@^1.2`). */
export interface SkillSpec {
  name: string;
  /** The version or semver range after `@`; undefined means the current version. */
  range?: string;
}

/** Longer ranges are refused before they reach the semver parser. */
const MAX_RANGE_LENGTH = 256;

/**
 * Splits `name@range`. Names never hold an `@` (letters, digits, `-`, `_`), so the first one
 * starts the range. An empty or oversized range, or one with control characters, is refused here.
 *
 * @example
 * parseSkillSpec('pdf@^1.2'); // { name: 'pdf', range: '^1.2' }
 * parseSkillSpec('pdf');      // { name: 'pdf' }
 */
export function parseSkillSpec(spec: string): SkillSpec {
  const at = spec.indexOf('@');
  if (at === -1) return { name: spec };
  const name = spec.slice(0, at);
  const range = spec.slice(at + 1).trim();
  if (range === '' || range.length > MAX_RANGE_LENGTH || /[\u0000-\u001f\u007f]/.test(range)) {
    throw new RegistryError('VERSION_NOT_FOUND', `'${visibleControls(spec.slice(0, 80))}' names no usable version after '@'`, {
      hint: `write ${name || '<name>'}@<version> or ${name || '<name>'}@<range>, e.g. ${name || 'pdf'}@1.2.0 or ${name || 'pdf'}@^1.2`,
    });
  }
  return { name, range };
}
