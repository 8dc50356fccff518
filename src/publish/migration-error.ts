import { SkilldexError, type SkilldexErrorOptions } from '../core/errors/skilldex-error.ts';

/**
 * A legacy skill folder that cannot be migrated; the message names the file and what is wrong.
 *
 * @example
 * throw new MigrationError('index.ts: no execute function');
 */
export class MigrationError extends SkilldexError<'MIGRATION_FAILED'> {
  override name = 'MigrationError';

  constructor(message: string, options: SkilldexErrorOptions = {}) {
    super('MIGRATION_FAILED', message, options);
  }
}
