/**
 * `npm run build:package` (also run by `npm pack` and `npm publish` through `prepack`): compiles
 * src/ — everything but the site — into JavaScript and declarations under lib/, which is what the
 * npm package ships. Node refuses to strip types under node_modules, so an installed package
 * cannot run the TypeScript sources the checkout runs.
 *
 * After compiling it checks what it wrote, so a bad package fails here and not on a user's
 * machine: every relative import resolves to a file in lib/, and every bare import is a Node
 * built-in or a package in `dependencies` (a devDependency such as Astro or esbuild is not
 * installed for users).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'lib');

/** The package a bare specifier names: `ajv/dist/2020.js` → `ajv`, `@scope/x/y` → `@scope/x`. */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * Problems with the compiled files under `dir`, one line each; empty when the package is sound.
 * esbuild parses every file (the import graph of a regular expression would also see imports in
 * comments and strings) and fails on a relative import that does not resolve.
 */
async function checkCompiled(dir: string, dependencies: readonly string[]): Promise<string[]> {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(folder, e.name)) : e.name.endsWith('.js') ? [path.join(folder, e.name)] : []));
  let metafile: Metafile;
  try {
    ({ metafile } = await build({ entryPoints: walk(dir), bundle: true, write: false, outdir: path.join(dir, '.check'), format: 'esm', platform: 'node', packages: 'external', metafile: true, logLevel: 'silent' }));
  } catch (error) {
    return ((error as { errors?: { text: string; location?: { file: string; line: number } }[] }).errors ?? [{ text: String(error) }]).map((e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`);
  }
  const problems: string[] = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const { path: specifier, external } of input.imports) {
      if (!external || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      if (!dependencies.includes(packageOf(specifier))) problems.push(`${file}: imports '${specifier}', which is not in package.json "dependencies"`);
    }
  }
  return problems;
}

async function main(): Promise<number> {
  rmSync(outDir, { recursive: true, force: true });
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.package.json')], { stdio: 'inherit', cwd: root });
  } catch {
    console.error('error: tsc failed to compile the package (see above)');
    return 1;
  }
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const problems = await checkCompiled(outDir, Object.keys(manifest.dependencies ?? {}));
  for (const problem of problems) console.error(`error ${problem}`);
  if (problems.length > 0) {
    console.error('hint: a package the compiled code imports belongs in "dependencies" (or keep the module that needs it out of src/cli, src/runtime, src/pipeline and src/scanner); a relative import must name a file tsconfig.package.json compiles');
    return 1;
  }
  // stderr: `npm pack --json` runs this as prepack and its stdout must stay pure JSON.
  console.error(`compiled the package into ${path.relative(process.cwd(), outDir) || '.'}`);
  return 0;
}

if (import.meta.main) process.exitCode = await main();
