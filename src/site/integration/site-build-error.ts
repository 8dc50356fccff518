import { SkilldexError } from '../../core/errors/skilldex-error.ts';

/**
 * A site build failure the user can act on: a stable code and a message that says what failed
 * and what to do. scripts/build.ts prints `error <code>: <message>` and decides the exit code.
 */
export class SiteBuildError extends SkilldexError {
  override name = 'SiteBuildError';
}
