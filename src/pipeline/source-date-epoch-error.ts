import { SkilldexError } from '../core/errors/skilldex-error.ts';

/**
 * A SOURCE_DATE_EPOCH the build cannot use (not a whole number of seconds, or a time no date in
 * the index can show). The build stops before it writes anything; the CLI treats it as bad
 * usage, like an option given a value it does not allow.
 *
 * @example
 * throw new SourceDateEpochError("SOURCE_DATE_EPOCH is 'abc', not a whole number of seconds");
 */
export class SourceDateEpochError extends SkilldexError<'SOURCE_DATE_EPOCH_INVALID'> {
  override name = 'SourceDateEpochError';

  constructor(message: string) {
    super('SOURCE_DATE_EPOCH_INVALID', message, {
      hint: 'set it to the seconds since 1970 (UTC) of the last change, as `git log -1 --format=%ct` prints, or unset it',
    });
  }
}
