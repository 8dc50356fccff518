import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { buildExamples } from '../runtime/_registries.ts';

/**
 * Users never see the documents Skilldex was designed from, so nothing they read may cite them:
 * not the README, CONTRIBUTING, docs/, the example skills, the generated schemas, CLI help, hints,
 * scaffolds or site strings. Code comments in .ts files may (they are stripped before the check);
 * everything else, comments in skill scripts and workflows included, is read as user-facing text.
 */
const REPO = join(import.meta.dirname, '..', '..');
const DESIGN_DOC_MENTION = /seed\s*0\d\d|field-notes|design card|§/i;

const ROOTS = ['README.md', 'CONTRIBUTING.md', 'AGENTS.md', 'docs', 'skills', 'schemas', 'src', 'bin', 'public', '.github'];
const BINARY = /\.(png|jpe?g|gif|webp|ico|woff2?|ttf|pdf|gz|zip|wasm)$/i;

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => undefined);
  if (!entries) return [path];
  const nested = await Promise.all(entries.map((e) => filesUnder(join(path, e.name))));
  return nested.flat();
}

/** What a reader of the file can see: for TypeScript, the code without its comments. */
function visibleText(path: string, text: string): string {
  if (!/\.(ts|mts)$/.test(path)) return text;
  return transformSync(text, { loader: 'ts', legalComments: 'none', format: 'esm' }).code;
}

/** `file: text` for each line that cites a design document (TypeScript is read as esbuild prints it). */
function mentions(path: string, text: string): string[] {
  return visibleText(path, text)
    .split('\n')
    .flatMap((line) => (DESIGN_DOC_MENTION.test(line) ? [`${path}: ${line.trim().slice(0, 160)}`] : []));
}

describe('user-facing text', () => {
  it('never cites the design documents', async () => {
    const files = (await Promise.all(ROOTS.map((root) => filesUnder(join(REPO, root))))).flat().filter((f) => !BINARY.test(f));
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) found.push(...mentions(relative(REPO, file), await readFile(file, 'utf8')));
    expect(found).toEqual([]);
  });

  // Earlier versions are published from git history, which keeps what the files once said: a
  // version that cited the design documents is withdrawn in skilldex.config.json.
  it('never cites them in the registry built from this repository, earlier versions included', async () => {
    const built = await buildExamples();
    const files = (await filesUnder(built)).filter((f) => !BINARY.test(f));
    expect(files.some((f) => /@\d+\.\d+\.\d+\.json$/.test(f)) || !existsSync(join(REPO, '.git'))).toBe(true);
    const found: string[] = [];
    for (const file of files) found.push(...mentions(relative(built, file), await readFile(file, 'utf8')));
    expect(found).toEqual([]);
  }, 120_000);

  it('catches a citation in a string but not in a TypeScript comment', () => {
    const code = "// see seed 004 §2\n/** FIELD-NOTES */\nexport const hint = 'see the seed 000 field table';\n";
    expect(mentions('src/x.ts', code)).toEqual(['src/x.ts: const hint = "see the seed 000 field table";']);
    expect(mentions('skills/x/SKILL.md', 'The seed 004 protocol.\nfine\n')).toEqual(['skills/x/SKILL.md: The seed 004 protocol.']);
    expect(mentions('skills/x/run.py', '# SemVer §11\n')).toHaveLength(1);
  });
});
