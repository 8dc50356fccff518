import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

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

function loadedBy(args: string[]): string[] {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, join(repo, 'bin', 'skilldex.mjs'), ...args], { cwd: repo, encoding: 'utf8', env: { ...process.env, LOADED_LOG: log } });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((u) => u.replace(pathToFileURL(repo).href + '/', ''));
}

describe('what a short command loads', () => {
  it('skilldex --version loads the CLI entry and nothing of the pipeline', () => {
    const loaded = loadedBy(['--version']);
    expect(loaded.some((u) => u.endsWith('src/cli/main.ts'))).toBe(true);
    expect(loaded.filter((u) => /src\/(pipeline|scanner|runtime\/node|publish|site)\/|node_modules\/(zod|yaml|ajv)\//.test(u))).toEqual([]);
  });

  it('skilldex validate <one skill> loads neither the emitter, signing, nor the pull-request code', () => {
    const loaded = loadedBy(['validate', join(repo, 'skills', 'code', 'code-review')]);
    expect(loaded.some((u) => u.endsWith('src/pipeline/validate.ts'))).toBe(true);
    const heavy = loaded.filter((u) => /node_modules\/(jose|tar-stream|fast-glob)\/|semver\/index\.js|src\/publish\/|src\/pipeline\/emit\/(write-registry|archive|sign)\.ts/.test(u));
    expect(heavy).toEqual([]);
  });
});
