/**
 * No module of src/ reaches itself through its imports, type-only imports included: a cycle
 * means two files each need the other to be read, so neither can be understood (or moved) alone.
 * Shared types and helpers go in a file both sides import (src/pipeline/model.ts for the build).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

/** Relative imports and re-exports of each file, `import type` included (imports only name .ts files: the house rule). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+\.ts)'/gm)].map((m) => resolve(dirname(file), m[1] as string));
    return [file, targets.filter((t) => known.has(t))];
  }));
}

/** Each cycle once, as the path that closes it (depth-first search; the graph is a few hundred files). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

describe('import graph of src/', () => {
  it('has no cycle, counting type-only imports', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const graph = importGraph(files);
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
    expect(cycles(graph).map((cycle) => cycle.map((f) => relative(SRC, f)).join(' -> '))).toEqual([]);
  });
});
