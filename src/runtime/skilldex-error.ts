/**
 * Codes a runtime failure can carry. Run failures use the script protocol's codes (see
 * `PROTOCOL_ERROR_CODES`); registry access adds its own.
 */
export type SkilldexErrorCode =
  | 'SKILL_NOT_FOUND'
  | 'VERIFICATION_FAILED'
  | 'INVALID_PATH'
  | 'ASSET_NOT_FOUND'
  | 'AMBIGUOUS_SCRIPT'
  | 'FETCH_FAILED'
  | 'INDEX_INVALID'
  | 'INDEX_VERSION_UNSUPPORTED'
  | 'MANIFEST_INVALID'
  | 'NOT_INSTALLED'
  | 'NO_REGISTRY'
  | 'INSTALL_FAILED'
  | 'RESPONSE_TOO_LARGE'
  | 'REDIRECT_REFUSED'
  | 'INDEX_UNSIGNED'
  | 'SIGNATURE_INVALID'
  | 'INDEX_ROLLBACK';

/**
 * The one error the runtime throws for a problem the caller can act on. It names what failed
 * (the skill, file or URL is in the message), carries a stable `code`, and a `hint` saying what to
 * do next.
 *
 * @example
 * try { await registry.load('nope'); }
 * catch (e) { if (e instanceof SkilldexError && e.code === 'SKILL_NOT_FOUND') console.log(e.hint); }
 */
export class SkilldexError extends Error {
  override name = 'SkilldexError';
  readonly code: SkilldexErrorCode;
  readonly hint: string | undefined;
  readonly details: unknown;

  constructor(code: SkilldexErrorCode, message: string, options: { hint?: string; details?: unknown; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }
}
