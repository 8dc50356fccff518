import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ProtocolEnvelope } from '../../src/core/schemas/outcome.ts';

export const SKILLS_DIR = fileURLToPath(new URL('../../skills/', import.meta.url));

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The single envelope on stdout, checked against the seed 004 schema. */
  envelope: Record<string, any>;
}

/** Spawns a protocol script for real and parses the one JSON envelope it prints. */
export function runScript(interpreter: 'python3' | 'sh', script: string, stdin: unknown, env: Record<string, string> = {}): Run {
  const input = typeof stdin === 'string' ? stdin : JSON.stringify(stdin);
  const result = spawnSync(interpreter, [SKILLS_DIR + script], {
    input,
    encoding: 'utf8',
    timeout: 20_000,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env },
  });
  if (result.error) throw result.error;
  const trimmed = result.stdout.trim();
  let envelope: Record<string, any>;
  try {
    envelope = JSON.parse(trimmed) as Record<string, any>;
  } catch {
    throw new Error(`stdout of ${script} is not exactly one JSON document:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  const parsed = ProtocolEnvelope.safeParse(envelope);
  if (!parsed.success) throw new Error(`envelope of ${script} does not match the seed 004 shape: ${parsed.error.message}\n${trimmed}`);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, envelope };
}

/** Asserts a success envelope for `action` and returns its data. */
export function ok(run: Run, action: string): any {
  if (run.envelope.success !== true) throw new Error(`expected success for ${action}, got ${JSON.stringify(run.envelope)}`);
  if (run.envelope.action !== action) throw new Error(`expected action ${action}, got ${run.envelope.action}`);
  if (run.status !== 0) throw new Error(`expected exit 0, got ${run.status}`);
  return run.envelope.data;
}
