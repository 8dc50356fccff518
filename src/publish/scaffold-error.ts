import { SkilldexError } from '../core/errors/skilldex-error.ts';

/**
 * A skill name `skilldex new` cannot scaffold; the hint suggests a name that works.
 *
 * @example
 * throw new ScaffoldError('a skill name is 1–64 characters', 'pick a short name like text-stats');
 */
export class ScaffoldError extends SkilldexError<'NAME_INVALID'> {
  override name = 'ScaffoldError';

  constructor(message: string, hint: string) {
    super('NAME_INVALID', message, { hint });
  }
}
