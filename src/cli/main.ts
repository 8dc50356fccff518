import { readFileSync } from 'node:fs';
import { type CommandDef, runCommand, renderUsage } from 'citty';
import { SkilldexError } from '../runtime/skilldex-error.ts';
import { CliError, EXIT } from './_errors.ts';
import { err, style } from './_output.ts';

/**
 * Every command lives in its own file under `commands/` and is loaded only when it runs, so
 * `skilldex search` does not pay for the build pipeline's imports.
 */
const load = (name: string) => () => import(`./commands/${name}.ts`).then((m: { default: CommandDef<any> }) => m.default);

/** package.json is two folders up both from src/cli/main.ts (checkout) and lib/cli/main.js (npm package). */
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export const COMMANDS = [
  // registry side
  'build', 'validate', 'scan', 'new', 'migrate', 'convert', 'keygen',
  // agent side
  'search', 'info', 'load', 'assets', 'install', 'run', 'prompt',
] as const;

const root: CommandDef = {
  meta: { name: 'skilldex', version: VERSION, description: 'A static registry for AI-agent skills. Reference: docs/cli.md' },
  subCommands: Object.fromEntries(COMMANDS.map((name) => [name, load(name)])),
};

/**
 * Runs the CLI and returns the exit code. Only this function decides exit codes: commands
 * return a number or throw a `CliError`.
 */
export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(`${await renderUsage(root)}\n`);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const sub = argv[0] as string;
  if (!(COMMANDS as readonly string[]).includes(sub)) {
    err(`${style.red('error', process.stderr)} unknown command '${sub}'`);
    err(`hint: one of ${COMMANDS.join(', ')}; see 'skilldex --help'`);
    return EXIT.usage;
  }
  const command = await load(sub)();
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${await renderUsage(command, root)}\n`);
    return EXIT.ok;
  }
  const unknown = await unknownFlag(command, argv.slice(1));
  if (unknown) {
    err(`${style.red('error', process.stderr)} unknown option '${unknown}' for 'skilldex ${sub}'`);
    err(`hint: see 'skilldex ${sub} --help'`);
    return EXIT.usage;
  }
  try {
    const { result } = await runCommand(command, { rawArgs: argv.slice(1) });
    return typeof result === 'number' ? result : EXIT.ok;
  } catch (error) {
    if (error instanceof SkilldexError) {
      err(`${style.red('error', process.stderr)} ${error.message} [${error.code}]`);
      if (error.hint) err(`hint: ${error.hint}`);
      return EXIT.failure;
    }
    if (error instanceof CliError) {
      err(`${style.red('error', process.stderr)} ${error.message}`);
      if (error.hint) err(`hint: ${error.hint}`);
      return error.exitCode;
    }
    // citty raises CLIError for bad usage (missing positional, enum value not allowed).
    if (error instanceof Error && error.name === 'CLIError') {
      err(`${style.red('error', process.stderr)} ${error.message}`);
      err(`hint: see 'skilldex ${sub} --help'`);
      return EXIT.usage;
    }
    throw error;
  }
}

/**
 * citty ignores options it does not know; a typo like `--formt json` would then silently run
 * with defaults. Returns the first option no argument of the command declares.
 */
async function unknownFlag(command: CommandDef<any>, args: readonly string[]): Promise<string | undefined> {
  const defs = (typeof command.args === 'function' ? await command.args() : await command.args) ?? {};
  const known = new Set<string>(['help', 'h']);
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  for (const [name, def] of Object.entries(defs as Record<string, { type?: string; alias?: string | string[] }>)) {
    if (def.type === 'positional') continue;
    for (const n of [name, kebab(name), ...[def.alias ?? []].flat()]) {
      known.add(n);
      if (def.type === 'boolean') known.add(`no-${n}`);
    }
  }
  for (const arg of args) {
    if (arg === '--') break;
    const match = /^--?([^=]+)/.exec(arg);
    if (!match || /^-\d/.test(arg)) continue;
    if (!known.has(match[1] as string)) return arg.split('=')[0];
  }
  return undefined;
}
