import type { ViteUserConfig } from 'astro';
import type { SiteBuildConfig } from './config.ts';

export const VIRTUAL_CONFIG_ID = 'virtual:skilldex/config';
// Vite's convention: a leading NUL keeps other plugins from treating the id as a file.
const RESOLVED_ID = `\0${VIRTUAL_CONFIG_ID}`;

export type VitePlugin = NonNullable<ViteUserConfig['plugins']>[number];

/**
 * A Vite plugin serving `virtual:skilldex/config` (typed in ./virtual-modules.d.ts): the checked
 * build configuration as a JSON literal, which the pages import at build time.
 */
export function virtualConfigPlugin(config: SiteBuildConfig): VitePlugin {
  return {
    name: 'skilldex:virtual-config',
    resolveId(id: string) {
      return id === VIRTUAL_CONFIG_ID ? RESOLVED_ID : undefined;
    },
    load(id: string) {
      return id === RESOLVED_ID ? `export default ${JSON.stringify(config)};` : undefined;
    },
  };
}
