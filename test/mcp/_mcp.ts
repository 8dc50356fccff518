import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, REPO } from '../helpers/cli.ts';

/** Starts the real `skilldex mcp` (the CLI in a child process) on stdio and connects the SDK's real Client. */
export async function connectStdio(args: readonly string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string; close: () => Promise<void>; pid: number }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], cwd: REPO, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1', ...env } as Record<string, string> });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'skilldex-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close(), pid: transport.pid as number };
}

/** Starts `skilldex mcp --http 0 …` and resolves with its endpoint URL once it is listening. */
export function startHttpServer(args: readonly string[]): Promise<{ url: string; stop: () => Promise<number | null>; stderr: () => string }> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--http', '0', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /MCP server on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1] as string,
          stderr: () => stderr,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

/** The text of a tool result's first content block. */
export const textOf = (result: unknown): string => {
  const first = (result as CallToolResult).content[0];
  return first?.type === 'text' ? first.text : '';
};

/** Calls a tool and returns the result typed as a CallToolResult. */
export const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;
