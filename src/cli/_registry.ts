import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { NodeRegistry } from '../runtime/node/node-registry.ts';
import { visibleControls } from '../core/control-chars.ts';
import { PUBLIC_KEY_PATTERN } from '../core/public-key.ts';
import { maxIndexBytesFromEnv, openRegistry, stallMsFromEnv } from '../runtime/node/open-registry.ts';
import { RegistryError } from '../core/errors/registry-error.ts';
import { CliError, EXIT } from './_errors.ts';
import { err, withLocalDocs } from './_output.ts';

/**
 * What the agent-side CLI commands share: the `--registry`, `--cache-dir` and `--json` flags.
 * Runtime errors (`SkilldexError`) are turned into exit codes by `main.ts`, like every other.
 */
export const registryArgs = {
  registry: { type: 'string', description: 'Registry URL or build folder (default: $SKILLDEX_REGISTRY)', valueHint: 'url|dir' },
  'cache-dir': { type: 'string', description: 'HTTP cache and run copies (default: $SKILLDEX_CACHE_DIR or ~/.cache/skilldex)' },
  json: { type: 'boolean', description: 'Machine-readable JSON on stdout', default: false },
  trust: { type: 'string', description: "Maintainers' public key(s), comma-separated (ed25519:…): refuse the registry unless its index is signed by one (default: the keys pinned for it)", valueHint: 'key' },
  'trust-on-first-use': { type: 'boolean', description: "With no key pinned: pin the registry's published keys now and verify against them from then on", default: false },
} as const;

export interface RegistryArgValues {
  registry?: string;
  'cache-dir'?: string;
  trust?: string;
  'trust-on-first-use'?: boolean;
}

/**
 * Opens the registry named by `--registry` or `$SKILLDEX_REGISTRY`.
 *
 * @example
 * const registry = await openRegistryFromArgs({ registry: 'https://skills.example.org/' });
 */
export function openRegistryFromArgs(args: RegistryArgValues): Promise<NodeRegistry> {
  const trust = args.trust ? args.trust.split(',').map((k) => k.trim()).filter(Boolean) : undefined;
  for (const key of trust ?? []) {
    if (!PUBLIC_KEY_PATTERN.test(key)) throw new CliError('E_USAGE', `--trust ${JSON.stringify(visibleControls(key))} is not a public key`, { hint: 'give the key as skilldex keygen prints it: ed25519: followed by 43 characters', exitCode: EXIT.usage });
  }
  // A malformed setting is a usage error (exit 2), as a malformed SOURCE_DATE_EPOCH is for build.
  try {
    maxIndexBytesFromEnv();
    stallMsFromEnv();
  } catch (error) {
    if (error instanceof RegistryError) throw new CliError('E_USAGE', error.message, { hint: error.hint, exitCode: EXIT.usage });
    throw error;
  }
  const where = args.registry || process.env.SKILLDEX_REGISTRY;
  if (!where) throw new CliError('E_USAGE', 'no registry given', { hint: 'pass --registry <url|dir> or set SKILLDEX_REGISTRY, e.g. SKILLDEX_REGISTRY=https://skills.example.org/', exitCode: EXIT.usage });
  // A mistyped registry is a usage error (exit 2), found before anything is read: another scheme
  // (ftp://, s3://) would otherwise be taken for a folder name.
  if (where && !/^(https?|file):/i.test(where)) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(where)) {
      throw new CliError('E_USAGE', `--registry ${JSON.stringify(visibleControls(where))} is neither an http(s) URL nor a folder`, { hint: 'give https://… (or http:// on your own machine), or the folder `skilldex build` wrote', exitCode: EXIT.usage });
    }
    const folder = where.endsWith('index.json') ? resolve(where, '..') : where;
    if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
      throw new CliError('E_USAGE', `registry folder ${visibleControls(resolve(folder))} does not exist`, { hint: 'give an http(s) URL or the folder `skilldex build` wrote', exitCode: EXIT.usage });
    }
    // A folder with no index.json is the wrong folder (the registry's sources, say), not a broken registry.
    if (!statSync(join(folder, 'index.json'), { throwIfNoEntry: false })) {
      throw new CliError('E_USAGE', `${visibleControls(resolve(folder))} holds no index.json, so it is not a built registry`, { hint: 'give the folder `skilldex build` wrote (dist by default), or an http(s) URL', exitCode: EXIT.usage });
    }
  }
  return openRegistry(where, {
    ...(args['cache-dir'] ? { cacheDir: args['cache-dir'] } : {}),
    ...(trust ? { trust } : {}),
    trustOnFirstUse: args['trust-on-first-use'] === true,
    onUnverified: (root) =>
      err(`note: ${visibleControls(root)} is not verified: no key is pinned for it, so nothing ties its index to its maintainers. Pin their key with --trust ed25519:… (${withLocalDocs('docs/security.md')}#the-chain-of-trust). Shown once per registry.`),
  });
}

/** Formats a byte count for progress lines: `1.2 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
