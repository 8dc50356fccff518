import { SkilldexError } from '../core/errors/skilldex-error.ts';

/**
 * What `skilldex new` cannot scaffold (a name, a category, a description it would have to
 * write into a skill that does not validate); the hint suggests what works.
 *
 * @example
 * throw new ScaffoldError('a skill name is 1–64 characters', 'pick a short name like text-stats');
 */
export class ScaffoldError extends SkilldexError<'SCAFFOLD_INVALID'> {
  override name = 'ScaffoldError';

  constructor(message: string, hint: string) {
    super('SCAFFOLD_INVALID', message, { hint });
  }
}
