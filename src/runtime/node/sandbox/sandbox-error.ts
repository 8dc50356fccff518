import { SkilldexError } from '../../../core/errors/skilldex-error.ts';

/**
 * Why a run could not be confined (or its interpreter not found, or its declared environment
 * would undo the confinement); the runner turns it into an outcome.
 */
export type SandboxErrorCode = 'SANDBOX_UNAVAILABLE' | 'INTERPRETER_NOT_FOUND' | 'PERMISSION_DENIED';

/**
 * Raised before a skill starts when its sandbox cannot be set up. The message names what is
 * missing; the hint says how to install it, or how to run unconfined on purpose.
 *
 * @example
 * throw new SandboxError('SANDBOX_UNAVAILABLE', 'bwrap (bubblewrap) is not on PATH', 'sudo apt-get install bubblewrap');
 */
export class SandboxError extends SkilldexError<SandboxErrorCode> {
  override name = 'SandboxError';

  constructor(code: SandboxErrorCode, message: string, hint: string) {
    super(code, message, { hint });
  }
}
