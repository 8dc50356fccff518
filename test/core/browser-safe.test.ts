/**
 * `src/core/` and the browser part of the runtime (`src/runtime/*.ts`, not `node/`) run in
 * browsers and Deno: they may import no `node:` module, directly or through a dependency, and use
 * no Node global. esbuild bundles each entry for the browser, which fails on a Node built-in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const files = (dir: string, deep: boolean): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (deep ? files(join(dir, e.name), deep) : []) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
const ENTRIES = [...files(join(SRC, 'core'), true), ...files(join(SRC, 'runtime'), false)].sort();
const NODE_GLOBALS = /\b(?:process\.|Buffer\b|__dirname|__filename|require\(|global\.|setImmediate\()/;

describe('browser-safe code', () => {
  it('covers the core and the browser runtime', () => {
    expect(ENTRIES.map((f) => relative(SRC, f))).toEqual(expect.arrayContaining(['core/signing.ts', 'core/search.ts', 'runtime/registry.ts']));
  });

  it.each(ENTRIES.map((f) => [relative(SRC, f), f]))('%s bundles for the browser with no Node built-in', async (_, file) => {
    const result = await build({ entryPoints: [file], bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((i) => i.startsWith('node:') || /^(?:fs|path|os|crypto|child_process|url|zlib|http|https)$/.test(i))).toEqual([]);
  });

  it.each(ENTRIES.map((f) => [relative(SRC, f), f]))('%s uses no Node global', (_, file) => {
    // Types and comments stripped: a comment may name `process.env`, the code may not.
    const code = transformSync(readFileSync(file, 'utf8'), { loader: 'ts', minifyWhitespace: false, legalComments: 'none' }).code.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
    expect(code).not.toMatch(NODE_GLOBALS);
  });
});
