import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { buildInto, tempDir } from './_registries.ts';

/**
 * Every process in the sandbox can read /proc/1/cmdline: the command line of the sandbox's first
 * process, a copy of bwrap. bwrap's options held the host's paths (the run folder in the host's
 * temporary folder, the verified copy in the cache under the user's home) and the variables it
 * sets; it now reads them from a pipe, and its command line holds only what the sandbox shows anyway.
 */

let registry: NodeRegistry;
let cacheDir: string;

beforeAll(async () => {
  const root = await tempDir('cmdline-root');
  const skill = join(root, 'skills', 'cmdline-reader');
  await mkdir(join(skill, 'scripts'), { recursive: true });
  await writeFile(
    join(skill, 'SKILL.md'),
    [
      '---',
      'name: cmdline-reader',
      'description: Test fixture. Reports the command line of the first process of its sandbox.',
      'version: 1.0.0',
      'security:',
      '  environment:',
      '    SKILL_MODE: plain',
      'resources:',
      '  entry: ./scripts/read.py',
      '---',
      '',
      '# Cmdline reader',
      '',
      'Prints what `/proc/1/cmdline` holds.',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(skill, 'scripts', 'read.py'),
    ['import json', 'with open("/proc/1/cmdline", "rb") as f:', '    words = f.read().decode("utf-8", "replace").split("\\0")', 'print(json.dumps({"success": True, "data": {"words": words}}))', ''].join('\n'),
  );
  cacheDir = await tempDir('cmdline-cache');
  registry = await openRegistry(await buildInto(root, 'cmdline'), { cacheDir });
}, 60_000);

describe("the sandbox's first process", () => {
  it('shows none of the host paths bwrap was given, nor the values it sets', async () => {
    const outcome = await registry.run('cmdline-reader', {});
    expect(outcome.error).toBeUndefined();
    const words = (outcome.output as { words: string[] }).words;
    // The sandbox started by bwrap, with the skill's interpreter and script after its options.
    expect(words[0]).toMatch(/bwrap$/);
    expect(words).toContain('/skill/scripts/read.py');
    const line = words.join(' ');
    expect(line).not.toContain(tmpdir());
    expect(line).not.toContain(cacheDir);
    expect(line).not.toContain('--bind');
    expect(line).not.toContain('--setenv');
    expect(line).not.toContain('SKILL_MODE');
  });
});
