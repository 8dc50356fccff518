import type { Position } from '../core/parse/source-text.ts';
import { SkilldexError, type SkilldexErrorOptions } from '../core/errors/skilldex-error.ts';

/**
 * A legacy skill folder that cannot be migrated: `file` (relative to the skill folder) and, when
 * the problem is at a place in it, `position` say where; the message says what is wrong.
 *
 * @example
 * throw new MigrationError('METADATA.yml', 'METADATA.yml is not a YAML mapping', { hint: 'write name: and description: at the top level' });
 */
export class MigrationError extends SkilldexError<'MIGRATION_FAILED'> {
  override name = 'MigrationError';
  readonly file: string;
  readonly position: Position | undefined;

  constructor(file: string, message: string, options: SkilldexErrorOptions & { position?: Position } = {}) {
    super('MIGRATION_FAILED', message, options);
    this.file = file;
    this.position = options.position;
  }
}
