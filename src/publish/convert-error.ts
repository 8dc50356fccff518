import { SkilldexError, type SkilldexErrorOptions } from '../core/errors/skilldex-error.ts';

/**
 * A skill that cannot be converted between SKILL.md and skill.json; the message says which field
 * or file stands in the way.
 *
 * @example
 * throw new ConvertError('skill.json: mode composite has no SKILL.md form');
 */
export class ConvertError extends SkilldexError<'CONVERT_FAILED'> {
  override name = 'ConvertError';

  constructor(message: string, options: SkilldexErrorOptions = {}) {
    super('CONVERT_FAILED', message, options);
  }
}
