import { DEFAULT_MAX_PROCESSES, DEFAULT_MEMORY_MB, MAX_MEMORY_MB } from '../core/schemas/run-limits.ts';
import type { RunOptions } from '../runtime/node/run.ts';
import { CliError, EXIT } from './_errors.ts';

/**
 * The limits on each run that `skilldex run` and `skilldex mcp` share: the memory of a skill that
 * declares none, and the processes of one run (docs/security.md#what-the-runner-guarantees).
 */
export const runLimitArgs = {
  'default-memory-mb': { type: 'string', description: `Memory limit in MB for a skill that declares no security.memory_mb (default ${DEFAULT_MEMORY_MB}; 0: none); a declared one always applies`, valueHint: 'mb' },
  'max-processes': { type: 'string', description: `Processes and threads one run may have at once (default ${DEFAULT_MAX_PROCESSES}; 0: no limit; not enforced when running as root)`, valueHint: 'n' },
} as const;

/**
 * A flag's whole number from `min` to `max`, or undefined when the flag is not given; anything
 * else is a usage error naming the flag and the range, with `hint`. Shared by every numeric flag
 * of `skilldex run` and `skilldex mcp`.
 */
export function wholeNumber(value: string | undefined, flag: string, max: number, { min = 0, hint = `e.g. ${flag} 1024; 0 turns the limit off` }: { min?: number; hint?: string } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new CliError('E_USAGE', `${flag} must be a whole number from ${min} to ${max}, not '${value}'`, { exitCode: EXIT.usage, hint });
  return n;
}

/**
 * The run options the flags set; a flag not given leaves the runtime's default.
 *
 * @example
 * runLimitsFromArgs({ 'default-memory-mb': '512' }); // { defaultMemoryMb: 512 }
 */
export function runLimitsFromArgs(args: { 'default-memory-mb'?: string; 'max-processes'?: string }): Pick<RunOptions, 'defaultMemoryMb' | 'maxProcesses'> {
  const defaultMemoryMb = wholeNumber(args['default-memory-mb'], '--default-memory-mb', MAX_MEMORY_MB);
  const maxProcesses = wholeNumber(args['max-processes'], '--max-processes', 65_536);
  return { ...(defaultMemoryMb === undefined ? {} : { defaultMemoryMb }), ...(maxProcesses === undefined ? {} : { maxProcesses }) };
}
