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
 *
 * Then it bundles the CLI, dependencies included, into lib/cli/skilldex.js and lib/cli/chunks/,
 * which bin/skilldex.mjs runs when installed: loaded as some 400 separate modules, the tsc output
 * spent much of a short command's time loading them. That bundle is checked too: it must
 * exist, start, and find every file it names from a module's location (see checkBundle).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type Metafile, type Plugin } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * lib/ of the package; `--out-dir` writes it elsewhere, beside a copy of bin/, schemas/ and
 * package.json laid out as the tarball holds them (the benchmark times that copy's CLI, while
 * tests may be packing this checkout's own lib/).
 */
const outDir = path.resolve((import.meta.main ? parseArgs({ options: { 'out-dir': { type: 'string' } } }).values['out-dir'] : undefined) ?? path.join(root, 'lib'));
const srcDir = path.join(root, 'src');

/** The CLI as one bundle (bin/skilldex.mjs runs it when installed), relative to lib/. */
const CLI_BUNDLE = 'cli/skilldex.js';
/** Where the bundle's chunks go: what two commands share, and each command, loaded when it runs. */
const CLI_CHUNKS = 'cli/chunks';
/**
 * The worker threads the CLI starts, bundled with it over tsc's output at the same paths (so
 * `siblingModule` finds them unchanged, from the CLI and from the library entries alike): a
 * worker loading the tsc output resolved and compiled some 300 modules of its own, ~0.2 s
 * before it took its first skill.
 */
const WORKERS = ['pipeline/phases/worker', 'pipeline/last-build-worker', 'scanner/worker'];

/**
 * Stands for "lib/, relative to this output file" in the bundle until its files are written: a
 * chunk only learns where it lives once esbuild has split the bundle.
 */
const LIB = '@skilldex-lib@/';

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

/** `src/a/b.ts` → `a/b.js`: the file tsc compiled it to, relative to lib/. */
const compiledCounterpart = (source: string): string => path.relative(srcDir, source).split(path.sep).join('/').replace(/\.ts$/, '.js');

/**
 * Keeps `import.meta.url` (and `.dirname`, `.filename`) meaning the module's own location in the
 * bundle: each source file that names it gets the URL of its compiled counterpart in lib/, computed
 * from the URL of the output file it ends up in, so the package works wherever it is installed.
 * The worker threads, the harness that runs module skills, the egress bridge, package.json and
 * the validator's code fingerprint are all found from there, in lib/. One use is rewritten
 * instead: a sibling module loaded with `createRequire(import.meta.url)` (the JSON Schema
 * checker) becomes a `require` that esbuild bundles. `uses` collects, per source file, the lines
 * that still name the module's location, for {@link checkBundle}.
 */
function moduleLocation(uses: Map<string, string[]>): Plugin {
  return {
    name: 'skilldex-module-location',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const relative = path.relative(srcDir, args.path);
        if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        const other = /\bimport\.meta\.(?!(?:url|dirname|filename)\b)\w+/.exec(text);
        if (other) return { errors: [{ text: `${relative} uses ${other[0]}, which the CLI bundle cannot give the meaning it has in lib/`, location: { file: args.path, line: text.slice(0, other.index).split('\n').length } }] };
        const required = text
          // A module a source loads synchronously (and lazily) through require: the bundle's own copy,
          // evaluated at the first call as before, rather than its lib/ file with a second copy of
          // its dependencies (the JSON Schema checker: ajv, 86 modules).
          .replace(/\bcreateRequire\(import\.meta\.url\)\(`(\.\.?\/[^`$]+)\$\{moduleExtension\(import\.meta\.url\)\}`\)/g, (_, stem: string) => `require(${JSON.stringify(`${stem}.ts`)})`);
        const lines = required.split('\n').filter((line) => /\bimport\.meta\.(url|dirname|filename)\b/.test(line) && !/^\s*(\*|\/\*|\/\/)/.test(line));
        if (lines.length === 0) return { contents: required, loader: 'ts' };
        uses.set(args.path, lines);
        const own = `new URL(${JSON.stringify(LIB + compiledCounterpart(args.path))}, import.meta.url)`;
        const file = `process.getBuiltinModule('node:url').fileURLToPath(${own})`;
        const contents = required.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, property: string) =>
          property === 'url' ? `${own}.href` : property === 'filename' ? file : `process.getBuiltinModule('node:path').dirname(${file})`);
        return { contents, loader: 'ts' };
      });
    },
  };
}

/**
 * Bundles the CLI into lib/cli/skilldex.js, with its dependencies: it starts by loading a few files
 * instead of some 400 modules (zod, ajv, yaml and ours). Commands stay lazy `import()`s, each a
 * chunk of its own, so `skilldex --version` loads only the entry. The rest of lib/ stays what tsc
 * wrote: the library entries, and the worker threads and child-process harnesses, which the
 * bundle starts from there. Returns the files written, relative to lib/.
 */
async function bundleCli(uses: Map<string, string[]>): Promise<string[]> {
  const { outputFiles } = await build({
    entryPoints: [{ in: path.join(srcDir, 'cli', 'main.ts'), out: CLI_BUNDLE.replace(/\.js$/, '') }, ...WORKERS.map((worker) => ({ in: path.join(srcDir, `${worker}.ts`), out: worker }))],
    outdir: outDir,
    chunkNames: `${CLI_CHUNKS}/[name]-[hash]`,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.18',
    // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow.
    mainFields: ['module', 'main'],
    // The CommonJS dependencies (fast-glob, tar-stream, semver…) call require() for Node built-ins.
    banner: { js: "import { createRequire as __skilldexCreateRequire } from 'node:module'; const require = __skilldexCreateRequire(import.meta.url);" },
    // Whitespace and comments out (as tsc leaves comments out of lib/); identifiers kept, so stack
    // traces read as in the sources. No keepNames: its __name() call per function and class cost
    // validate of one skill about a tenth of its time, and nothing reads a function's or class's
    // `.name` (error names are set explicitly; esbuild renames only symbols that collide).
    minifyWhitespace: true,
    minifySyntax: true,
    write: false,
    logLevel: 'warning',
    plugins: [moduleLocation(uses)],
  });
  const written: string[] = [];
  for (const output of outputFiles) {
    const relative = path.relative(outDir, output.path).split(path.sep).join('/');
    const toLib = path.posix.relative(path.posix.dirname(relative), '.');
    mkdirSync(path.dirname(output.path), { recursive: true });
    writeFileSync(output.path, output.text.replaceAll(LIB, toLib === '' ? './' : `${toLib}/`));
    written.push(relative);
  }
  return written;
}

/**
 * Problems with the CLI bundle, one line each; empty when it is sound. It must exist and start
 * (`--version` through it prints package.json's version, found from its location); every
 * `new URL('…', import.meta.url)` in it must name a file of the package (the compiled
 * counterparts, or a dependency's own file, which a bundle cannot reach by a relative URL); and
 * every relative path a source computes next to `import.meta.url` (a worker, a harness, the egress
 * bridge, the code fingerprint's folder) must name a file or folder of lib/.
 */
function checkBundle(written: readonly string[], uses: ReadonlyMap<string, string[]>, version: string): string[] {
  const bundle = path.join(outDir, CLI_BUNDLE);
  if (!existsSync(bundle)) return [`lib/${CLI_BUNDLE}: missing: bin/skilldex.mjs runs it in the installed package`];
  const problems: string[] = [];
  for (const file of written) {
    const text = readFileSync(path.join(outDir, file), 'utf8');
    for (const [, target] of text.matchAll(/new URL\(\s*"([^"]+)",\s*import\.meta\.url\s*\)/g)) {
      if (!existsSync(path.resolve(path.dirname(path.join(outDir, file)), target!))) problems.push(`lib/${file}: new URL('${target}', import.meta.url) names no file of the package`);
    }
    if (/\b__(dirname|filename)\b/.test(text.replace(/\b(typeof __(dirname|filename)|__(dirname|filename)\s*:)/g, ''))) {
      problems.push(`lib/${file}: uses __dirname or __filename, which an ES module bundle does not define`);
    }
  }
  for (const [source, lines] of uses) {
    const counterpart = path.join(outDir, compiledCounterpart(source));
    if (!existsSync(counterpart)) problems.push(`${path.relative(root, source)}: its compiled counterpart ${path.relative(root, counterpart)} is missing`);
    for (const line of lines) {
      for (const [, target] of line.matchAll(/['"`](\.\.?(?:\/[^'"`$]*)?)(?=['"`$])/g)) {
        const resolved = path.resolve(path.dirname(counterpart), target!);
        if (!existsSync(resolved) && !existsSync(`${resolved}.js`)) problems.push(`${path.relative(root, source)}: '${target}' names nothing in lib/ (looked for ${path.relative(root, resolved)}[.js])`);
      }
    }
  }
  try {
    const started = execFileSync(process.execPath, ['--input-type=module', '-e', `const { main } = await import(${JSON.stringify(pathToFileURL(bundle).href)}); process.exitCode = await main(['--version']);`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (started.trim() !== version) problems.push(`lib/${CLI_BUNDLE}: --version printed '${started.trim()}', not package.json's ${version}`);
  } catch (error) {
    problems.push(`lib/${CLI_BUNDLE}: --version failed: ${String((error as { stderr?: string }).stderr ?? error).trim().split('\n').slice(0, 5).join(' | ')}`);
  }
  return problems;
}

async function main(): Promise<number> {
  rmSync(outDir, { recursive: true, force: true });
  const packageDir = path.dirname(outDir);
  if (packageDir !== root) {
    for (const entry of ['bin', 'schemas', 'package.json']) cpSync(path.join(root, entry), path.join(packageDir, entry), { recursive: true });
  }
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.package.json'), '--outDir', outDir], { stdio: 'inherit', cwd: root });
  } catch {
    console.error('error: tsc failed to compile the package (see above)');
    return 1;
  }
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string> };
  const problems = await checkCompiled(outDir, Object.keys(manifest.dependencies ?? {}));
  for (const problem of problems) console.error(`error ${problem}`);
  if (problems.length > 0) {
    console.error('hint: a package the compiled code imports belongs in "dependencies" (or keep the module that needs it out of src/cli, src/runtime, src/pipeline and src/scanner); a relative import must name a file tsconfig.package.json compiles');
    return 1;
  }
  const uses = new Map<string, string[]>();
  let written: string[];
  try {
    written = await bundleCli(uses);
  } catch (error) {
    console.error(`error: esbuild failed to bundle the CLI (see above): ${(error as Error).message.split('\n')[0]}`);
    return 1;
  }
  const bundleProblems = checkBundle(written, uses, manifest.version);
  for (const problem of bundleProblems) console.error(`error ${problem}`);
  if (bundleProblems.length > 0) {
    console.error('hint: a module that finds a file from import.meta.url must find it in lib/ (see moduleLocation in scripts/build-package.ts); a dependency that reads its own files cannot be bundled and must be left external');
    return 1;
  }
  // stderr: `npm pack --json` runs this as prepack and its stdout must stay pure JSON.
  console.error(`compiled the package into ${path.relative(process.cwd(), outDir) || '.'}, with the CLI bundled into ${path.relative(process.cwd(), path.join(outDir, CLI_BUNDLE))}`);
  return 0;
}

if (import.meta.main) process.exitCode = await main();
