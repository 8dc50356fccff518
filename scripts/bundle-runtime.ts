import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// Part of the site build, not of the runtime: esbuild is a devDependency, and the npm package's
// Node entry must load nothing an installed package lacks.
const BROWSER_ENTRY = fileURLToPath(new URL('../src/runtime/index.ts', import.meta.url));

/**
 * Bundles the browser-safe runtime (`src/runtime/index.ts`) into one minified ES module, which
 * the site publishes at `/runtime/skilldex.js` so a page or agent can `import` it from the
 * registry itself. Fails if anything pulls in a Node built-in.
 *
 * @example
 * const { bytes } = await bundleBrowserRuntime('dist/runtime/skilldex.js');
 */
export async function bundleBrowserRuntime(outFile: string): Promise<{ bytes: number }> {
  await mkdir(dirname(outFile), { recursive: true });
  const result = await build({
    entryPoints: [BROWSER_ENTRY],
    outfile: outFile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0];
  return { bytes: output?.bytes ?? 0 };
}
