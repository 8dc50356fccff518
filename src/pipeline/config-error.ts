import { SkilldexError, type SkilldexErrorOptions } from '../core/errors/skilldex-error.ts';

/**
 * A registry configuration that cannot be used: `skilldex.config.json` (the message names file,
 * line and field) or the signing key it refers to.
 *
 * @example
 * throw new ConfigError('skilldex.config.json:3:5 skillsDir: expected string');
 */
export class ConfigError extends SkilldexError<'CONFIG_INVALID'> {
  override name = 'ConfigError';

  constructor(message: string, options: SkilldexErrorOptions = {}) {
    super('CONFIG_INVALID', message, options);
  }
}
