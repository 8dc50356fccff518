import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArgDef, CommandDef } from 'citty';
import { replaceBetweenMarkers } from '../core/markers.ts';
import { COMMANDS } from './main.ts';

/**
 * The command reference in docs/cli.md, generated from the command definitions themselves (the
 * same `meta` and `args` that `skilldex <command> --help` prints), so every command and every flag
 * is documented and none that does not exist. Regenerate with `npm run schemas`; a test fails
 * while the file is stale.
 */

/** Table-cell text: pipes escaped, and `<…>` (placeholders such as `<name>`) kept from being read as HTML. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const code = (text: string) => `\`${text.replace(/\|/g, '\\|')}\``;

function flagName(name: string, def: ArgDef): string {
  if (def.type === 'positional') return def.required === false ? `[${name}]` : `<${name}>`;
  const hint = def.type === 'boolean' ? '' : ` <${(def as { valueHint?: string }).valueHint ?? (def.type === 'enum' ? (def as { options?: string[] }).options?.join('|') : 'value')}>`;
  return `--${name}${hint}`;
}

function defaultOf(def: ArgDef): string {
  const value = (def as { default?: unknown }).default;
  if (value === undefined || value === '') return '';
  if (def.type === 'boolean') return value === true ? 'on (`--no-…` turns it off)' : 'off';
  return `\`${String(value)}\``;
}

/** One command's section: its description, usage line and a table of its arguments. */
function commandReference(name: string, command: CommandDef<any>): string {
  const args = Object.entries((command.args ?? {}) as Record<string, ArgDef>);
  const positionals = args.filter(([, def]) => def.type === 'positional').map(([n, def]) => flagName(n, def));
  const meta = command.meta as { description?: string };
  const lines = [`### skilldex ${name}`, '', cell(`${meta.description ?? ''}.`.replace(/\.\.$/, '.')), '', '```', ['skilldex', name, ...positionals, '[options]'].join(' '), '```'];
  if (args.length > 0) {
    lines.push('', '| argument | default | what it does |', '| --- | --- | --- |');
    for (const [n, def] of args) lines.push(`| ${code(flagName(n, def))} | ${defaultOf(def)} | ${cell(def.description ?? '')} |`);
  }
  return lines.join('\n');
}

/** The generated part of docs/cli.md: every command, in the order `skilldex --help` lists them. */
async function cliReference(): Promise<string> {
  const sections: string[] = [];
  for (const name of COMMANDS) {
    const command = (await import(`./commands/${name}.ts`)).default as CommandDef<any>;
    sections.push(commandReference(name, command));
  }
  return sections.join('\n\n');
}

export const CLI_DOC_FILE = join(import.meta.dirname, '..', '..', 'docs', 'cli.md');

/** docs/cli.md with its generated part brought up to date. */
export async function renderCliDoc(file = CLI_DOC_FILE): Promise<string> {
  return replaceBetweenMarkers(await readFile(file, 'utf8'), 'commands', await cliReference());
}
