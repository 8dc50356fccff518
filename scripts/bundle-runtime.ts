import { mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';

// Part of the site build, not of the runtime: esbuild is a devDependency, and the npm package's
// Node entry must load nothing an installed package lacks.
const BROWSER_ENTRY = fileURLToPath(new URL('../src/runtime/index.ts', import.meta.url));
/** What the runtime loads only when a caller names a version (`name@range`): the semver range parser. */
const VERSION_RANGE = fileURLToPath(new URL('../src/runtime/version-range.ts', import.meta.url));

const COMMON: BuildOptions = { bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, legalComments: 'none', metafile: true, logLevel: 'silent' };

/**
 * Bundles the browser-safe runtime (`src/runtime/index.ts`) into one minified ES module, which
 * the site publishes at `/runtime/skilldex.js` so a page or agent can `import` it from the
 * registry itself. The semver range parser, which only `name@range` needs, is a second module
 * beside it (`skilldex-version-range.js`) that the first imports on demand: a page that never
 * names a version never downloads it. Fails if anything pulls in a Node built-in.
 *
 * @example
 * const { bytes, lazy } = await bundleBrowserRuntime('dist/runtime/skilldex.js');
 */
export async function bundleBrowserRuntime(outFile: string): Promise<{ bytes: number; lazy: { file: string; bytes: number } }> {
  await mkdir(dirname(outFile), { recursive: true });
  const lazyFile = `${basename(outFile, '.js')}-version-range.js`;
  // The entry's `import('./version-range.ts')` becomes an import of the lazy module beside it.
  const lazyImport: Plugin = {
    name: 'skilldex-version-range',
    setup(b) {
      b.onResolve({ filter: /\/version-range\.ts$/ }, () => ({ path: `./${lazyFile}`, external: true }));
    },
  };
  const entry = await build({ ...COMMON, entryPoints: [BROWSER_ENTRY], outfile: outFile, plugins: [lazyImport] });
  const lazy = await build({ ...COMMON, entryPoints: [VERSION_RANGE], outfile: join(dirname(outFile), lazyFile) });
  const size = (result: typeof entry) => Object.values(result.metafile?.outputs ?? {})[0]?.bytes ?? 0;
  return { bytes: size(entry), lazy: { file: lazyFile, bytes: size(lazy) } };
}
