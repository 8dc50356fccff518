import { stripVTControlCharacters } from 'node:util';
import { type ArgsDef, type CommandDef, parseArgs, renderUsage, runCommand } from 'citty';
import { cliFailure, EXIT, systemReason } from './_errors.ts';
import { err, forStream, printable, style, withLocalDocs } from './_output.ts';
import { closest } from '../core/suggest.ts';
import { visibleControls } from '../core/control-chars.ts';
import { VERSION } from '../core-node/package-version.ts';

/**
 * Every command lives in its own file under `commands/` and is loaded only when it runs, so
 * `skilldex search` does not pay for the build pipeline's imports.
 */
const load = (name: string) => () => import(`./commands/${name}.ts`).then((m: { default: CommandDef<any> }) => m.default);

export const COMMANDS = [
  // registry side
  'build', 'validate', 'scan', 'new', 'migrate', 'convert', 'keygen',
  // agent side
  'search', 'match', 'list', 'info', 'load', 'assets', 'install', 'run', 'prompt', 'mcp',
] as const;

/** Commands whose positional argument takes any number of values (paths, names). */
const VARIADIC = new Set(['validate', 'scan', 'prompt']);

const root: CommandDef = {
  meta: { name: 'skilldex', version: VERSION, description: 'A static registry for AI-agent skills. Reference: docs/cli.md' },
  subCommands: Object.fromEntries(COMMANDS.map((name) => [name, load(name)])),
};

/**
 * How every failure reaches the user: `error <message>` and, when there is one, `hint: <hint>`,
 * one line each. A message may quote what a registry or a skill holds (a parser's complaint about
 * a file's bytes, a refused signature's header): its control characters are shown, never acted
 * on, and so are its line feeds, which would otherwise print a `hint:` line of the registry's own
 * ("pin this new key") above the real one.
 */
const printFailure = (message: string, hint: string | undefined): void => {
  err(`${style.red('error', process.stderr)} ${printable(message)}`);
  if (hint) err(`hint: ${withLocalDocs(printable(hint))}`);
};

const usageError = (message: string, hint: string): number => {
  printFailure(message, hint);
  return EXIT.usage;
};

const printUsage = async (command: CommandDef<any>, parent?: CommandDef): Promise<void> => {
  process.stdout.write(`${withLocalDocs(forStream(await renderUsage(command, parent), process.stdout))}\n`);
};

/** `unknown command 'serach'` with the closest command, or the list of all of them. */
function unknownCommand(typed: string): number {
  const guess = closest(typed, COMMANDS);
  return usageError(`unknown command '${printable(typed)}'`, guess ? `did you mean '${guess}'? (see 'skilldex --help')` : `one of ${COMMANDS.join(', ')}; see 'skilldex --help'`);
}

let pipeWatched = false;
/**
 * A reader that stops early (`skilldex list | head -1`) closes the pipe, and the next write
 * fails with EPIPE: the rest of the output has nowhere to go, which is the reader's choice, not a
 * failure, so the process ends at once and quietly, as `cat` and `grep` do. Any other failure to
 * write the output (a full disk behind `> file`) loses it, which the user must hear of: said on
 * stderr, exit 1. Without a listener Node throws the write error with its stack.
 */
function endQuietlyOnClosedPipe(): void {
  if (pipeWatched) return;
  pipeWatched = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
      // Stderr itself failing leaves nowhere to say so: the exit code alone tells.
      if (stream === process.stdout) {
        printFailure(`cannot write to standard output: ${systemReason(error) ?? error.message}`, 'the output was not saved; check where it goes (a full disk, a file that cannot be written) and run the command again');
      }
      process.exit(EXIT.failure);
    });
  }
}

/**
 * Whether the folder the command runs in still exists. Deleted under a shell that stayed in it,
 * every relative path and Node's own `process.cwd()` fail, the latter with a stack trace.
 */
function cwdExists(): boolean {
  try {
    process.cwd();
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the CLI and returns the exit code. Only this function decides exit codes: commands
 * return a number or throw a `SkilldexError` (`cliFailure` maps it). Every usage error exits 2.
 */
export async function main(argv: string[]): Promise<number> {
  endQuietlyOnClosedPipe();
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-V' || first === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (!cwdExists()) {
    // Not printFailure: its hint looks up documents relative to the current folder.
    err(`${style.red('error', process.stderr)} the current folder no longer exists`);
    err('hint: cd to an existing folder and run the command again');
    return EXIT.failure;
  }
  if (first === undefined || first === '--help' || first === '-h') {
    await printUsage(root);
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  if (first === 'help') {
    const [topic, ...extra] = rest;
    if (topic === undefined) {
      await printUsage(root);
      return EXIT.ok;
    }
    if (!(COMMANDS as readonly string[]).includes(topic)) return unknownCommand(topic);
    if (extra.length > 0) return usageError(`unexpected argument '${printable(extra[0]!)}' for 'skilldex help'`, `'skilldex help ${topic}' shows the options of one command`);
    await printUsage(await load(topic)(), root);
    return EXIT.ok;
  }
  if (first.startsWith('-')) return usageError(`unknown option '${printable(first)}'`, `options go after the command; see 'skilldex --help'`);
  if (!(COMMANDS as readonly string[]).includes(first)) return unknownCommand(first);

  const sub = first;
  const command = await load(sub)();
  const defs = ((typeof command.args === 'function' ? await command.args() : await command.args) ?? {}) as ArgsDef;
  const read = readUsage(sub, defs, rest);
  if (read === 'help') {
    await printUsage(command, root);
    return EXIT.ok;
  }
  if (read) return usageError(read.message, read.hint);
  try {
    const { result } = await runCommand(command, { rawArgs: rest });
    return typeof result === 'number' ? result : EXIT.ok;
  } catch (error) {
    const failure = cliFailure(error);
    if (failure) {
      printFailure(failure.message, failure.hint);
      return failure.exitCode;
    }
    // citty raises CLIError for bad usage (missing positional, enum value not allowed).
    if (error instanceof Error && error.name === 'CLIError') return usageError(stripVTControlCharacters(error.message), `see 'skilldex help ${sub}'`);
    return internalError(sub, error);
  }
}

/**
 * An error no command expected is a bug in Skilldex, not the user's: one line saying so, with
 * what went wrong, instead of a stack trace of bundled code (SKILLDEX_DEBUG=1 prints it).
 */
function internalError(sub: string, error: unknown): number {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  printFailure(`skilldex ${sub} stopped on an internal error: ${message.split('\n', 1)[0]}`, 'this is a bug in skilldex; please report it with the command you ran (run it with SKILLDEX_DEBUG=1 to see where it happened)');
  if (process.env.SKILLDEX_DEBUG && error instanceof Error && error.stack) err(visibleControls(error.stack));
  return EXIT.internal;
}

/**
 * Reads a command's arguments before citty does: `'help'` when `--help` or `-h` stands where an
 * option may, else what citty would let slip: an option the command does not declare (a typo like
 * `--formt json` would otherwise run silently with defaults), an option without its value, one
 * given twice, or a positional argument the command has no place for (`skilldex build ./skills`
 * would otherwise build `.`). A help request anywhere wins over every problem but a missing value
 * before it: in `--changed-since -h` the `-h` stands where the value should.
 */
function readUsage(sub: string, defs: ArgsDef, args: readonly string[]): 'help' | { message: string; hint: string } | undefined {
  const options = new Set<string>(['help', 'h']);
  /** Options that take a value (string and enum), each spelling with the option it names. */
  const valued = new Map<string, string>();
  /** Switches (boolean options), each spelling (`scan`, `no-scan`) with the option it names. */
  const switches = new Map<string, string>();
  /** Each option given so far, with the spelling it was given as (`--no-scan`, `-o`). */
  const givenAs = new Map<string, string>();
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  let positionals = 0;
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === 'positional') {
      positionals++;
      continue;
    }
    for (const n of [name, kebab(name), ...[(def as { alias?: string | string[] }).alias ?? []].flat()]) {
      options.add(n);
      if (def.type === 'boolean') {
        options.add(`no-${n}`);
        switches.set(n, kebab(name)).set(`no-${n}`, kebab(name));
      } else valued.set(n, name);
    }
  }
  let problem: { message: string; hint: string } | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') break;
    const match = /^--?([^=]+)(=?)/.exec(arg);
    if (!match || /^-\d/.test(arg)) continue;
    const name = match[1] as string;
    const typed = arg.split('=')[0] as string;
    if (name === 'help' || name === 'h') return 'help';
    if (problem) continue;
    if (!options.has(name)) {
      const guess = closest(name, [...options].filter((o) => o.length > 1));
      problem = {
        message: `unknown option '${printable(typed)}' for 'skilldex ${sub}'`,
        hint: guess ? `did you mean '--${guess}'? (see 'skilldex help ${sub}')` : `see 'skilldex help ${sub}'`,
      };
      continue;
    }
    const option = valued.get(name);
    if (option !== undefined) {
      // The next argument is the value whatever it starts with (`--description "- a list"`), as
      // citty reads it, unless it is an option: then the value was left out (`--root --no-scan`,
      // `--changed-since -h`), which citty would read as the value, or `--out ""`, which built
      // into the current folder.
      const next = args[i + 1];
      const missing = match[2] === '=' ? arg.length === match[0].length : next === undefined || next === '' || next.startsWith('--') || /^-[A-Za-z]$/.test(next);
      if (missing) return { message: `option '${typed}' needs a value`, hint: `write '${typed} <value>' (a value that starts with '-' as '${typed}=<value>'); see 'skilldex help ${sub}'` };
      if (match[2] !== '=') i++;
    }
    // citty keeps the last of two values and drops the other without a word: `--to claude
    // --to cursor` installed for cursor only. Of a switch it keeps the last of `--no-scan --scan`.
    const key = option ?? switches.get(name) as string;
    const earlier = givenAs.get(key);
    const flag = switches.get(name);
    // citty reads `--scan=no` as on.
    if (flag !== undefined && match[2] === '=') problem = { message: `option '${typed}' takes no value`, hint: `write '--${flag}' or '--no-${flag}'; see 'skilldex help ${sub}'` };
    else if (earlier === typed) {
      problem = {
        message: `option '${typed}' is given more than once`,
        hint: flag === undefined ? `give it once; an option that takes several values takes them comma-separated (see 'skilldex help ${sub}')` : `give it once; see 'skilldex help ${sub}'`,
      };
    } else if (earlier !== undefined) {
      problem = flag !== undefined && earlier.startsWith('--no-') !== typed.startsWith('--no-')
        ? { message: `options '${earlier}' and '${typed}' contradict each other`, hint: `give one of them: '--${flag}' turns it on, '--no-${flag}' off` }
        : { message: `options '${earlier}' and '${typed}' are the same option, given twice`, hint: `give it once; see 'skilldex help ${sub}'` };
    } else givenAs.set(key, typed);
  }
  if (problem) return problem;
  let given: string[];
  try {
    given = parseArgs([...args], defs)._.map(String);
  } catch {
    return undefined; // citty reports it with its own message when the command runs
  }
  if (VARIADIC.has(sub) || given.length <= positionals) return undefined;
  const extra = given[positionals] as string;
  return {
    message: `unexpected argument '${printable(extra)}' for 'skilldex ${sub}'`,
    hint: positionals === 0
      ? `'skilldex ${sub}' takes options only; see 'skilldex help ${sub}'`
      : `quote an argument that contains spaces; see 'skilldex help ${sub}'`,
  };
}
