import type { NodeRegistry } from '../runtime/node/node-registry.ts';
import { openRegistry } from '../runtime/node/open-registry.ts';

/**
 * What the agent-side CLI commands share: the `--registry`, `--cache-dir` and `--json` flags.
 * Runtime errors (`SkilldexError`) are turned into exit codes by `main.ts`, like every other.
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

/** Formats a byte count for progress lines: `1.2 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
