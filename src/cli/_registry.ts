import { SkilldexError } from '../skilldex-error.ts';
import type { NodeRegistry } from './node-registry.ts';
import { openRegistry } from './open-registry.ts';

/**
 * What the agent-side CLI commands share: the `--registry`, `--cache-dir` and `--json` flags and
 * the mapping from runtime errors to CLI failures. (It lives here, beside the runtime it wraps,
 * so each command file stays a thin citty definition.)
 */
export const registryArgs = {
  registry: { type: 'string', description: 'Registry URL or build folder (default: $SKILLDEX_REGISTRY)', valueHint: 'url|dir' },
  'cache-dir': { type: 'string', description: 'HTTP cache and run copies (default: $SKILLDEX_CACHE_DIR or ~/.cache/skilldex)' },
  json: { type: 'boolean', description: 'Machine-readable JSON on stdout', default: false },
} as const;

export interface RegistryArgValues {
  registry?: string;
  'cache-dir'?: string;
}

/**
 * Opens the registry named by `--registry` or `$SKILLDEX_REGISTRY`.
 *
 * @example
 * const registry = await openRegistryFromArgs({ registry: 'https://skills.example.org/' });
 */
export function openRegistryFromArgs(args: RegistryArgValues): Promise<NodeRegistry> {
  return openRegistry(args.registry || process.env.SKILLDEX_REGISTRY, args['cache-dir'] ? { cacheDir: args['cache-dir'] } : {});
}

/** A runtime error as the CLI reports it: stable code, message, hint. Undefined for bugs. */
export function cliFailure(error: unknown): { code: string; message: string; hint?: string } | undefined {
  if (!(error instanceof SkilldexError)) return undefined;
  return { code: `E_${error.code}`, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
}

/** Formats a byte count for progress lines: `1.2 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
