import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RACY_WINDOW_MS } from '../../src/pipeline/cache-file.ts';
import { dateBack } from '../helpers/at-rest.ts';

/**
 * Start-up is mostly module loading, so what a short command loads is its cost. A load hook in
 * the real CLI process records every module; the heavy ones a command does not use stay out.
 */
const repo = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'skilldex-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hook = join(dir, 'hook.mjs');
writeFileSync(
  hook,
  `import module from 'node:module';
import { appendFileSync } from 'node:fs';
module.registerHooks({ load(url, context, next) { appendFileSync(process.env.LOADED_LOG, url + '\\n'); return next(url, context); } });
`,
);

function loadedBy(args: string[], cwd = repo): string[] {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, join(repo, 'bin', 'skilldex.mjs'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, LOADED_LOG: log } });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((u) => u.replace(pathToFileURL(repo).href + '/', ''));
}

/** The example skills, copied into a registry of their own and dated a day back ({@link dateBack}). */
function examplesAtRest(name: string): string {
  const root = join(dir, name);
  cpSync(join(repo, 'skills'), join(root, 'skills'), { recursive: true });
  dateBack(join(root, 'skills'));
  return root;
}

describe('what a short command loads', () => {
  it('skilldex --version loads the CLI entry and nothing of the pipeline', () => {
    const loaded = loadedBy(['--version']);
    expect(loaded.some((u) => u.endsWith('src/cli/main.ts'))).toBe(true);
    expect(loaded.filter((u) => /src\/(pipeline|scanner|runtime\/node|publish|site)\/|node_modules\/(zod|yaml|ajv)\//.test(u))).toEqual([]);
  });

  it('skilldex validate <one skill> loads neither the emitter, signing, nor the pull-request code (only its small GitError class)', () => {
    const loaded = loadedBy(['validate', join(repo, 'skills', 'code', 'code-review')]);
    expect(loaded.some((u) => u.endsWith('src/pipeline/validate.ts'))).toBe(true);
    const heavy = loaded.filter((u) => /node_modules\/(jose|tar-stream|fast-glob)\/|semver\/index\.js|src\/publish\/(?!git-error\.ts)|src\/pipeline\/emit\/(write-registry|archive|sign)\.ts/.test(u));
    expect(heavy).toEqual([]);
  });

  it('skilldex validate <a skill without JSON Schemas> does not load the schema checker, and one with schemas does not load ajv\'s compiler', () => {
    // Outside the registry, so it is checked alone; its SKILL.md declares no input or output schema.
    const skill = join(dir, 'plain', 'conventional-commits');
    cpSync(join(repo, 'skills', 'dev', 'conventional-commits'), skill, { recursive: true });
    const loaded = loadedBy(['validate', skill]);
    expect(loaded.some((u) => u.endsWith('src/pipeline/rules/check-skill.ts'))).toBe(true);
    expect(loaded.filter((u) => /node_modules\/ajv\/|src\/core\/(schema-problems|meta-schema-validators|json-schema)\.ts/.test(u))).toEqual([]);
    // A skill with schemas loads the checker, with its meta-schemas compiled ahead of time: ajv's
    // compiler (and the runtime's schema compiler) stay unloaded. Copied out of the checkout too:
    // there, a build cache another test's build left would answer for it, and nothing would be checked.
    const schemaSkill = join(dir, 'with-schemas', 'code-review');
    cpSync(join(repo, 'skills', 'code', 'code-review'), schemaSkill, { recursive: true });
    const withSchemas = loadedBy(['validate', schemaSkill]);
    expect(withSchemas.some((u) => u.endsWith('src/core/meta-schema-validators.ts'))).toBe(true);
    expect(withSchemas.filter((u) => /node_modules\/ajv\/dist\/(ajv|core|2020|compile\/)|src\/core\/json-schema\.ts/.test(u))).toEqual([]);
  }, 120_000);

  it('a no-op rebuild loads neither the parser (nor its YAML library), the scanner rules, the emitter nor signing', () => {
    const root = examplesAtRest('registry');
    const cold = loadedBy(['build', '--out', join(dir, 'out')], root);
    expect(cold.some((u) => u.endsWith('src/pipeline/emit/write-registry.ts'))).toBe(true);
    const noop = loadedBy(['build', '--out', join(dir, 'out')], root);
    expect(noop.some((u) => u.endsWith('src/pipeline/validate.ts'))).toBe(true);
    const unused = noop.filter((u) => /node_modules\/(jose|tar-stream|ajv|yaml)\/|src\/pipeline\/phases\/parse\.ts|src\/core\/parse\/(frontmatter|declared-identity)\.ts|src\/scanner\/catalog\.ts|src\/pipeline\/emit\/(write-registry|archive)\.ts/.test(u));
    expect(unused).toEqual([]);
  });

  it('skilldex validate in a registry a build recorded loads neither the parser (nor its YAML library) nor the scanner rules', () => {
    const root = examplesAtRest('validated');
    const unbuilt = loadedBy(['validate', 'skills/code/code-review'], root);
    expect(unbuilt.some((u) => u.endsWith('src/pipeline/phases/parse.ts'))).toBe(true);
    loadedBy(['build', '--out', join(dir, 'validated-out')], root);
    const unused = /node_modules\/(ajv|yaml)\/|src\/pipeline\/phases\/parse\.ts|src\/core\/parse\/(frontmatter|declared-identity)\.ts|src\/scanner\/catalog\.ts/;
    for (const args of [['validate'], ['validate', 'skills/code/code-review']]) {
      const loaded = loadedBy(args, root);
      expect(loaded.some((u) => u.endsWith('src/pipeline/validate.ts'))).toBe(true);
      expect(loaded.filter((u) => unused.test(u))).toEqual([]);
    }
  });

  it('a build with nothing changed since the last one loads none of the pipeline, nor zod', async () => {
    // Written, then left alone for longer than the racy window: only then is the build recorded.
    const root = join(dir, 'settled');
    cpSync(join(repo, 'skills', 'code'), join(root, 'skills', 'code'), { recursive: true });
    await new Promise((done) => setTimeout(done, RACY_WINDOW_MS + 200));
    loadedBy(['build', '--out', join(dir, 'settled-out')], root);
    const unchanged = loadedBy(['build', '--out', join(dir, 'settled-out')], root);
    expect(unchanged.some((u) => u.endsWith('src/pipeline/last-build.ts'))).toBe(true);
    expect(unchanged.filter((u) => /node_modules\/(zod|yaml|js-yaml|ajv|jose|tar-stream)\/|src\/pipeline\/(index|validate|cache|config)\.ts|src\/scanner\//.test(u))).toEqual([]);
  });
});
