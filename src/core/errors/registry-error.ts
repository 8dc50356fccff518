import { visibleControls } from '../control-chars.ts';
import { SkilldexError, type SkilldexErrorOptions } from './skilldex-error.ts';

/**
 * Codes a registry client failure can carry (listed in docs/runtime.md#errors). Run failures
 * are not thrown: they come back as an outcome with the script protocol's codes.
 */
export type RegistryErrorCode =
  | 'SKILL_NOT_FOUND'
  | 'VERSION_NOT_FOUND'
  | 'VERSIONS_INVALID'
  | 'VERIFICATION_FAILED'
  | 'INVALID_PATH'
  | 'ASSET_NOT_FOUND'
  | 'AMBIGUOUS_SCRIPT'
  | 'FETCH_FAILED'
  | 'INDEX_INVALID'
  | 'INDEX_VERSION_UNSUPPORTED'
  | 'MANIFEST_INVALID'
  | 'MANIFEST_TOO_LARGE'
  | 'NOT_INSTALLED'
  | 'NO_REGISTRY'
  | 'INSTALL_FAILED'
  | 'RESPONSE_TOO_LARGE'
  | 'REDIRECT_REFUSED'
  | 'INDEX_UNSIGNED'
  | 'SIGNATURE_INVALID'
  | 'INDEX_ROLLBACK'
  | 'TRUST_CONFIG_INVALID';

/**
 * What the registry client (browser and Node) throws: a skill, file or URL that could not be
 * found, fetched, verified or installed. The message names it; the hint says what to do.
 *
 * @example
 * try { await registry.load('nope'); }
 * catch (e) { if (e instanceof RegistryError && e.code === 'SKILL_NOT_FOUND') console.log(e.hint); }
 */
export class RegistryError extends SkilldexError<RegistryErrorCode> {
  override name = 'RegistryError';

  /**
   * Messages quote what a registry or a caller said (skill names, versions, paths, a server's
   * answer), and a library user prints them: their control characters are shown (ESC as ␛),
   * never sent to a terminal. The CLI does the same for everything it prints; this covers the
   * library and the MCP server too.
   */
  constructor(code: RegistryErrorCode, message: string, options: SkilldexErrorOptions = {}) {
    super(code, visibleControls(message), { ...options, hint: options.hint === undefined ? undefined : visibleControls(options.hint) });
  }
}
