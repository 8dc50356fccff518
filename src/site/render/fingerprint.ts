/**
 * The renderer's fingerprint, part of every cache key (./document.ts): a cached render is reused
 * only by the very renderer that made it. It covers
 * - the source of the Markdown renderer and every module it imports, found by following their
 *   relative imports from src/site/catalog/markdown.ts (contents, not timestamps);
 * - the name and version of every package those modules import, and of everything those
 *   packages depend on (markdown-it, rehype, parse5, highlight.js and their grammars …);
 * - the Node version and its Unicode tables (`slugify` and the parsers' character classes).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleExtension } from '../../core/module-file.ts';

const RENDERER_ENTRY = new URL(`../catalog/markdown${moduleExtension(import.meta.url)}`, import.meta.url);

let fingerprint: string | undefined;

export function rendererFingerprint(): string {
  fingerprint ??= computeFingerprint(RENDERER_ENTRY);
  return fingerprint;
}

/** Exported for tests: the fingerprint of the renderer whose entry module is `entry`. */
export function computeFingerprint(entry: URL): string {
  const { sources, packages } = rendererModules(entry);
  const hash = createHash('sha256');
  hash.update(`node ${process.versions.node} unicode ${process.versions.unicode ?? ''}\n`);
  for (const [file, text] of [...sources].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`${file}\0${text}\0`);
  for (const pkg of [...packageClosure(packages)].sort()) hash.update(`${pkg}\n`);
  return hash.digest('hex');
}

const IMPORT = /\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

/** The renderer's own modules (path → text) and the bare specifiers they import, with the module importing each. */
function rendererModules(entry: URL): { sources: Map<string, string>; packages: Map<string, URL> } {
  const sources = new Map<string, string>();
  const packages = new Map<string, URL>();
  const visit = (url: URL) => {
    const file = fileURLToPath(url);
    if (sources.has(file)) return;
    const text = readFileSync(file, 'utf8');
    sources.set(file, text);
    for (const [, specifier] of text.matchAll(IMPORT)) {
      if (specifier!.startsWith('.')) visit(new URL(specifier!, url));
      else if (!specifier!.startsWith('node:')) packages.set(packageName(specifier!), url);
    }
  };
  visit(entry);
  return { sources, packages };
}

/** `name@version` of each package and, transitively, of its dependencies, as installed. */
function packageClosure(roots: Map<string, URL>): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string, from: URL) => {
    const file = findPackageJson(name, from);
    if (!file) {
      seen.add(`${name}@missing`);
      return;
    }
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { version?: string; dependencies?: Record<string, string> };
    const id = `${name}@${manifest.version ?? '?'}`;
    if (seen.has(id)) return;
    seen.add(id);
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, pathToFileURL(file));
  };
  for (const [name, from] of roots) visit(name, from);
  return seen;
}

function findPackageJson(name: string, from: URL): string | undefined {
  try {
    return module.findPackageJSON(name, from);
  } catch {
    // A package that exports nothing resolvable (types only) is found by its folder instead.
    try {
      return module.createRequire(from).resolve(`${name}/package.json`);
    } catch {
      return undefined;
    }
  }
}

/** `hast-util-sanitize/lib/x.js` → `hast-util-sanitize`; `@scope/pkg/x` → `@scope/pkg`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
