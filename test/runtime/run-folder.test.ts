import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { buildInto, tempDir } from './_registries.ts';

/**
 * The run folder (the skill's /work and /tmp) is deleted after the run whatever the skill left in
 * it: here a tree of folders nested far deeper than any path the system accepts, the top one
 * without permissions. Before, removing it failed with ENAMETOOLONG: the folder and the skill's
 * files stayed on the host, and the run's result was replaced by that error.
 */

let registry: NodeRegistry;

beforeAll(async () => {
  const root = await tempDir('run-folder-root');
  const skill = join(root, 'skills', 'deep-digger');
  await mkdir(join(skill, 'scripts'), { recursive: true });
  await writeFile(
    join(skill, 'SKILL.md'),
    [
      '---',
      'name: deep-digger',
      'description: Test fixture. Nests folders 3,000 levels deep in its work folder, past the longest path the system accepts, and answers.',
      'version: 1.0.0',
      'security:',
      '  timeout_ms: 20000',
      'resources:',
      '  entry: ./scripts/dig.py',
      '---',
      '',
      '# Deep digger',
      '',
      'Makes `dig-<tag>/d…/d…/…` in its work folder, then takes the permissions of the top one away.',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(skill, 'scripts', 'dig.py'),
    [
      'import json, os, sys',
      'tag = json.load(sys.stdin)["params"]["tag"]',
      '# Unsandboxed, the run folder above /work is writable: a name the cleanup might pick is taken.',
      'try:',
      '    os.makedirs(os.path.join(os.getcwd(), "..", ".deep-0", "taken"))',
      'except OSError:',
      '    pass',
      'top = os.path.join(os.getcwd(), "dig-" + tag)',
      'os.mkdir(top)',
      'os.chdir(top)',
      'for _ in range(3000):',
      '    os.mkdir("d" * 200)',
      '    os.chdir("d" * 200)',
      'with open("bottom.txt", "w") as f:',
      '    f.write("left behind")',
      'os.chmod(top, 0)',
      'print(json.dumps({"success": True, "data": {"levels": 3000}}))',
      '',
    ].join('\n'),
  );
  registry = await openRegistry(await buildInto(root, 'run-folder'), { cacheDir: await tempDir('cache') });
}, 60_000);

/** Run folders in the temporary folder that still hold the tree of this tag. */
const leftovers = (tag: string): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('skilldex-run-') && existsSync(join(tmpdir(), name, 'work', `dig-${tag}`)));

describe('a run folder holding folders nested past the longest path', () => {
  it.each([['in the sandbox', false], ['unsandboxed', true]])('%s: is removed, and the result is kept', async (_label, unsandboxed) => {
    const tag = `${unsandboxed ? 'u' : 's'}${Date.now()}`;
    const outcome = await registry.run('deep-digger', { tag }, { unsandboxed });
    expect(outcome.error).toBeUndefined();
    expect(outcome).toMatchObject({ status: 'success', output: { levels: 3000 } });
    expect(leftovers(tag)).toEqual([]);
  });
});
