/**
 * Every error a library part throws for a problem the user can act on reaches the user the same
 * way: `error <message> [<code>]`, a hint, exit 1, and never a stack trace.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSkilldex } from '../helpers/cli.ts';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-errors-'));
  await mkdir(join(root, 'skills', 'hello'), { recursive: true });
  await writeFile(join(root, 'skills', 'hello', 'SKILL.md'), '---\nname: hello\ndescription: Says hello to whoever asks for a greeting.\n---\n\nSay hello.\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('library errors in the CLI', () => {
  it('prints a signing-key problem found while building as message, code and hint, exit 1', async () => {
    const missing = join(root, 'no-such-key.pem');
    const result = await runSkilldex(root, ['build', '--out', join(root, 'out')], { ...process.env, NO_COLOR: '1', SKILLDEX_SIGNING_KEY_FILE: missing });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`error SKILLDEX_SIGNING_KEY_FILE names ${missing}, which cannot be read [CONFIG_INVALID]\n`);
    expect(result.stderr).toContain("hint: point it at the PEM file 'skilldex keygen' wrote, or unset it to build an unsigned index\n");
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
