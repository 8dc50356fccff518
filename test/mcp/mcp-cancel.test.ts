import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesWith } from '../runtime/_processes.ts';
import { buildInto, tempDir } from '../runtime/_registries.ts';
import { connectStdio } from './_mcp.ts';

/**
 * A client that cancels a call (notifications/cancelled, sent by the SDK when the call's signal
 * aborts) gets the skill stopped with it: an agent that gave up on a run must not leave the skill
 * working, with whatever it does, until a timeout of up to ten minutes.
 */

let client: Client;
let close: () => Promise<void>;
let serverArgs: string[];

beforeAll(async () => {
  const root = await tempDir('mcp-cancel-root');
  const skill = join(root, 'skills', 'long-sleeper');
  await mkdir(join(skill, 'scripts'), { recursive: true });
  await writeFile(
    join(skill, 'SKILL.md'),
    [
      '---',
      'name: long-sleeper',
      'description: Test fixture. Sleeps far longer than any caller waits, so only a cancelled call can stop it early.',
      'version: 1.0.0',
      'actions:',
      '  - name: sleep',
      'security:',
      '  timeout_ms: 60000',
      'resources:',
      '  entry: ./scripts/sleep.sh',
      '---',
      '',
      '# Long sleeper',
      '',
      'Sleeps `50.<tag>` seconds, `tag` being a string of digits from the input.',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(skill, 'scripts', 'sleep.sh'),
    ['#!/bin/sh', 'input=$(cat)', `tag=$(printf '%s' "$input" | sed -n 's/.*"tag" *: *"\\([0-9]*\\)".*/\\1/p')`, 'echo written > "marker-${tag:-0}"', 'sleep "50.${tag:-0}"', `echo '{"success":true,"data":{}}'`, ''].join('\n'),
  );
  const registryDir = await buildInto(root, 'mcp-cancel');
  serverArgs = ['--registry', registryDir, '--cache-dir', await tempDir('mcp-cancel-cache'), '--allow-run', '--expose-skills', '--poll', '0'];
  const server = await connectStdio(serverArgs);
  client = server.client;
  close = server.close;
}, 120_000);

afterAll(async () => {
  await close?.();
});

const until = async (condition: () => boolean, ms: number): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 50))) if (condition()) return true;
  return condition();
};

describe('skilldex mcp, when the client cancels a call that runs a skill', () => {
  it.each([
    ['run_skill', (tag: string) => ({ name: 'long-sleeper', input: { tag }, action: 'sleep' })],
    ['long-sleeper__sleep', (tag: string) => ({ tag })],
  ])('%s: kills the skill at once', async (tool, args) => {
    const tag = String(Date.now() % 1_000_000);
    const controller = new AbortController();
    const call = client.callTool({ name: tool, arguments: args(tag) }, undefined, { signal: controller.signal });
    call.catch(() => {});
    expect(await until(() => processesWith(`50.${tag}`).length > 0, 10_000)).toBe(true);
    controller.abort('the agent gave up');
    await expect(call).rejects.toThrow();
    expect(await until(() => processesWith(`50.${tag}`).length === 0, 3_000)).toBe(true);
    // The server keeps serving.
    expect((await client.listTools()).tools.some((t) => t.name === 'run_skill')).toBe(true);
  });

  it('a client that disconnects mid-run gets the skill stopped and its run folder, with what it wrote, removed', async () => {
    const other = await connectStdio(serverArgs);
    const tag = String(Date.now() % 1_000_000);
    const runFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('skilldex-run-') && existsSync(join(tmpdir(), name, 'work', `marker-${tag}`)));
    other.client.callTool({ name: 'run_skill', arguments: { name: 'long-sleeper', input: { tag }, action: 'sleep' } }).catch(() => {});
    expect(await until(() => processesWith(`50.${tag}`).length > 0 && runFolders().length > 0, 10_000)).toBe(true);
    await other.close();
    expect(await until(() => runFolders().length === 0, 3_000)).toBe(true);
    expect(processesWith(`50.${tag}`)).toEqual([]);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('a server stopped with %s mid-run stops the skill and removes its run folder', async (signal) => {
    const other = await connectStdio(serverArgs);
    const tag = String(Date.now() % 1_000_000);
    const runFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('skilldex-run-') && existsSync(join(tmpdir(), name, 'work', `marker-${tag}`)));
    other.client.callTool({ name: 'run_skill', arguments: { name: 'long-sleeper', input: { tag }, action: 'sleep' } }).catch(() => {});
    expect(await until(() => processesWith(`50.${tag}`).length > 0 && runFolders().length > 0, 10_000)).toBe(true);
    // What a client does when the server has not exited after it closed stdin, and Ctrl-C in a terminal.
    process.kill(other.pid, signal);
    expect(await until(() => runFolders().length === 0, 3_000)).toBe(true);
    expect(processesWith(`50.${tag}`)).toEqual([]);
    // … and then exits, though the client still holds its stdin open.
    const alive = () => {
      try {
        return process.kill(other.pid, 0);
      } catch {
        return false;
      }
    };
    expect(await until(() => !alive(), 5_000)).toBe(true);
    await other.close();
  });
});
