import { SkilldexError } from './skilldex-error.ts';

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
  | 'NOT_INSTALLED'
  | 'NO_REGISTRY'
  | 'INSTALL_FAILED'
  | 'RESPONSE_TOO_LARGE'
  | 'REDIRECT_REFUSED'
  | 'INDEX_UNSIGNED'
  | 'SIGNATURE_INVALID'
  | 'INDEX_ROLLBACK';

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
}
