import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { defineCommand } from 'citty';
import { shellQuote } from '../../core/shell-quote.ts';
import { ConvertError } from '../../publish/convert-error.ts';
import { skillJsonToSkillMd, skillMdToSkillJson, type Conversion, type LostField } from '../../publish/convert.ts';
import { folderKind, skillFoldersBelow } from '../../pipeline/discover.ts';
import { choiceError, CliError, EXIT } from '../_errors.ts';
import { displayPath, notUsable } from '../_registry-root.ts';
import { out, printable, style } from '../_output.ts';
import { makeFolder } from '../../core-node/make-folder.ts';
import { temporaryBeside } from '../../core-node/write-atomically.ts';
import { openNoFollow } from '../../core-node/read-own-file.ts';
import { linkAtOrOnTheWay } from '../../core-node/link-on-the-way.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../../core/schemas/config.ts';

const TARGETS = ['skill-json', 'skill-md'] as const;

export default defineCommand({
  meta: { name: 'convert', description: 'Convert a SKILL.md skill into skill.json + prompt.md and back, listing what cannot be carried over; all or nothing, never through a symbolic link' },
  args: {
    // Not required for citty: a missing folder gets this command's own usage error, with an example.
    dir: { type: 'positional', required: false, description: 'The skill folder to convert (required)' },
    to: { type: 'string', description: 'skill-json or skill-md (default: the other format)' },
    out: { type: 'string', description: 'Write the converted skill to this folder (default: convert in place)' },
    'dry-run': { type: 'boolean', description: 'Print what would be written and lost, write nothing', default: false },
  },
  async run({ args }) {
    if (args.dir === undefined || String(args.dir) === '') throw new CliError('E_USAGE', 'missing the skill folder to convert', { hint: 'skilldex convert skills/my-skill (the folder that holds SKILL.md or skill.json)', exitCode: EXIT.usage });
    const dir = resolve(String(args.dir));
    const shown = (abs: string) => printable(displayPath(process.cwd(), abs));
    const kind = await folderKind(dir);
    const unusable = notUsable(kind, String(args.dir));
    if (unusable) throw unusable;
    // The skill folder, or a folder on the way to it below the current one (a category folder), a link.
    const linked = linkAtOrOnTheWay(process.cwd(), dir);
    if (linked) throw linkError(shown(linked), 'folder');
    const declared = (file: string) => regularFileAt(join(dir, file), shown(join(dir, file)));
    const isMd = declared('SKILL.md');
    const isJson = declared('skill.json');
    if (!isMd && !isJson) {
      const example = kind === 'skills' ? (await skillFoldersBelow(dir, 1))[0] : undefined;
      const hint = example ? `it is a folder of skills; convert one of them: skilldex convert ${shellQuote(displayPath(process.cwd(), example))}` : 'pass the folder that holds SKILL.md or skill.json';
      throw new CliError('E_NOT_A_SKILL', `${shown(dir)} holds neither SKILL.md nor skill.json`, { hint, exitCode: EXIT.usage });
    }
    if (isMd && isJson) throw new CliError('E_AMBIGUOUS', `${shown(dir)} holds both SKILL.md and skill.json`, { hint: 'remove one declaration first', exitCode: EXIT.usage });
    const to = String(args.to ?? (isMd ? 'skill-json' : 'skill-md'));
    if (!(TARGETS as readonly string[]).includes(to)) throw choiceError('to', to, TARGETS);
    if ((to === 'skill-json') !== isMd) {
      const other = isMd ? 'skill-json' : 'skill-md';
      throw new CliError('E_USAGE', `${shown(dir)} is already ${isMd ? 'a SKILL.md' : 'a skill.json'} skill`, { hint: `to convert it the other way: skilldex convert ${shellQuote(String(args.dir))} --to ${other} (the default)`, exitCode: EXIT.usage });
    }

    const target = args.out ? resolve(String(args.out)) : dir;
    const linkedOut = args.out ? linkAtOrOnTheWay(process.cwd(), target) : undefined;
    if (linkedOut) throw linkError(shown(linkedOut), 'folder');
    let conversion: Conversion;
    try {
      if (isMd) {
        // A skills/<category>/<name> layout supplies the category when the frontmatter has none;
        // any other parent folder (Downloads, a home folder) says nothing about the skill.
        const parent = basename(dirname(dir));
        const category = basename(dirname(dirname(dir))) === 'skills' && parent !== 'skills' ? parent : undefined;
        conversion = skillMdToSkillJson(readRegularFile(join(dir, 'SKILL.md'), shown(join(dir, 'SKILL.md'))).toString('utf8'), { category });
      } else {
        const text = (file: string) => readRegularFile(join(dir, file), shown(join(dir, file))).toString('utf8');
        const prompt = regularFileAt(join(dir, 'prompt.md'), shown(join(dir, 'prompt.md'))) ? text('prompt.md') : undefined;
        conversion = skillJsonToSkillMd(text('skill.json'), prompt, { folderName: basename(target) });
      }
    } catch (error) {
      if (error instanceof ConvertError) throw new CliError('E_CONVERT', `${shown(dir)}: ${error.message}`, { hint: "run 'skilldex validate' on the skill first" });
      throw error;
    }

    // Everything that could stop the conversion is checked before a line is printed, so no
    // line announces a file that is then not written.
    for (const file of conversion.files) {
      if (regularFileAt(join(dir, file.path), shown(join(dir, file.path))) && !conversion.replaces.includes(file.path)) {
        throw new CliError('E_EXISTS', `${shown(join(dir, file.path))} already exists, and the converted skill's ${file.path} would replace it`, { hint: `rename it (and the links to it), then convert again` });
      }
    }
    const inPlace = target === dir;
    const { copies, skipped } = inPlace ? { copies: [], skipped: [] } : sourceFiles(dir, (p) => conversion.replaces.includes(p) || conversion.files.some((f) => f.path === p));
    if (!inPlace) refuseOutFolder(target, shown(target));
    const lost = [...conversion.lost, ...skipped];

    // The new name leaves behind every composite that calls the old one: say which, before they
    // are found broken (only an in-place conversion replaces the skill they call).
    const callers = inPlace && conversion.name !== conversion.formerName ? await callersOf(dir, conversion.formerName) : [];
    const dryRun = args['dry-run'];
    if (!dryRun) {
      if (inPlace) replaceInPlace(dir, conversion);
      else writeOutFolder(dir, target, copies, conversion);
    }
    out(`${printable(conversion.name)}: ${isMd ? 'SKILL.md → skill.json + prompt.md' : 'skill.json → SKILL.md'}${dryRun ? ' (dry run)' : ''}`);
    for (const f of conversion.files) out(`  ${dryRun ? 'write ' : 'wrote '} ${shown(join(target, f.path))}`);
    for (const p of copies) out(`  ${dryRun ? 'copy  ' : 'copied'} ${shown(join(target, p))}`);
    if (inPlace) for (const p of conversion.replaces) out(`  ${dryRun ? 'remove' : 'removed'} ${shown(join(dir, p))}`);
    for (const n of conversion.notes) out(`  ${style.dim('note')} ${printable(n)}`);
    for (const c of callers) out(`  ${style.dim('note')} ${printable(`${c.name} (${shown(c.file)}) calls '${conversion.formerName}': change its calls and pipeline to '${conversion.name}'`)}`);
    if (lost.length > 0) {
      out(`${style.yellow('not carried over')} (${lost.length}):`);
      // Field names come from the skill: their control characters are shown, not sent.
      for (const l of lost) out(`  - ${printable(l.field)}: ${printable(l.reason)}`);
    }
    // A plain `validate` checks the registry here, not a folder written elsewhere with --out: name
    // the skill, unless callers it broke are to be seen too, which only the whole registry shows.
    if (!dryRun) out(`next: npx skilldex validate${callers.length > 0 ? '' : ` ${printable(shellQuote(displayPath(process.cwd(), target)))}`}`);
    return EXIT.ok;
  },
});

/**
 * The skills of the registry `dir` sits in (as skills/<name> or skills/<category>/<name>) whose
 * `calls` name `former`, with their declaration files; none outside a registry. The registry is
 * loaded only here, for a conversion that renames a skill.
 */
async function callersOf(dir: string, former: string): Promise<{ name: string; file: string }[]> {
  const { loadConfig, validateRegistry } = await import('../../pipeline/index.ts');
  for (const skillsDir of [dirname(dir), dirname(dirname(dir))]) {
    const root = dirname(skillsDir);
    const config = await loadConfig(root).catch(() => undefined);
    if (!config || resolve(root, config.skillsDir) !== skillsDir) continue;
    const { accepted } = await validateRegistry(root, { config, reportOnly: true, scan: false });
    return accepted
      .filter((s) => resolve(root, s.source.dir) !== dir && s.draft.calls.includes(former))
      .map((s) => ({ name: s.draft.name, file: join(root, s.source.dir, s.source.declaration) }));
  }
  return [];
}

const linkError = (shown: string, what: 'file' | 'folder') =>
  new CliError('E_SYMLINK', `${shown} is a symbolic link; links are never followed, read or written through`, { hint: `replace the link with the real ${what}` });

const notAFileError = (shown: string) => new CliError('E_NOT_A_FILE', `${shown} is not a regular file`, { hint: 'replace it with the real file' });

/** Whether a regular file is at `abs`; a link or anything else that is not a file there is refused. */
function regularFileAt(abs: string, shown: string): boolean {
  const info = lstatSync(abs, { throwIfNoEntry: false });
  if (!info) return false;
  if (info.isSymbolicLink()) throw linkError(shown, 'file');
  if (!info.isFile()) throw notAFileError(shown);
  return true;
}

/**
 * Copies a file of the skill a megabyte at a time, opened without following a link put in its
 * place since it was listed: an asset of any size is copied without being held in memory.
 */
function copyRegularFile(from: string, to: string, shown: string): void {
  const opened = openNoFollow(from);
  if (!opened) throw linkError(shown, 'file');
  try {
    if (!opened.info.isFile()) throw notAFileError(shown);
    const out = openSync(to, 'wx');
    try {
      const chunk = Buffer.allocUnsafe(1024 * 1024);
      for (let n = readSync(opened.fd, chunk); n > 0; n = readSync(opened.fd, chunk)) writeSync(out, chunk, 0, n);
    } finally {
      closeSync(out);
    }
  } finally {
    closeSync(opened.fd);
  }
}

/** A file's bytes, opened without following a link put in its place since it was looked at. */
function readRegularFile(abs: string, shown: string): Buffer {
  const opened = openNoFollow(abs);
  if (!opened) throw linkError(shown, 'file');
  try {
    if (!opened.info.isFile()) throw notAFileError(shown);
    // A file no registry would publish is not read into memory (700 MB ended in an internal error).
    if (opened.info.size > DEFAULT_MAX_FILE_BYTES) throw new CliError('E_TOO_LARGE', `${shown} is larger than ${DEFAULT_MAX_FILE_BYTES / 1024 / 1024} MB, more than a skill may publish`, { hint: 'move the data out of the skill; the declaration and prompt are short text' });
    return readFileSync(opened.fd);
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * The files of the skill to copy into an --out folder (all but those the conversion writes or
 * replaces), and what is left out and why: links are never followed, and a FIFO, socket or
 * device is not a file to copy.
 */
function sourceFiles(dir: string, converted: (path: string) => boolean, prefix = ''): { copies: string[]; skipped: LostField[] } {
  const copies: string[] = [];
  const skipped: LostField[] = [];
  const entries = readdirSync(join(dir, prefix), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const path = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) {
      const below = sourceFiles(dir, converted, path);
      copies.push(...below.copies);
      skipped.push(...below.skipped);
    } else if (e.isSymbolicLink()) skipped.push({ field: path, reason: 'a symbolic link; links are never followed or copied' });
    else if (!e.isFile()) skipped.push({ field: path, reason: 'not a regular file or folder' });
    else if (!converted(path)) copies.push(path);
  }
  return { copies, skipped };
}

/** An --out folder must be new, or an empty real folder: never a link, never one with files to lose. */
function refuseOutFolder(target: string, shown: string): void {
  const info = lstatSync(target, { throwIfNoEntry: false });
  if (!info) return;
  if (info.isSymbolicLink()) throw linkError(shown, 'folder');
  if (!info.isDirectory()) throw new CliError('E_EXISTS', `${shown} exists and is not a folder`, { hint: 'choose an empty --out folder, or a path where nothing is yet' });
  if (readdirSync(target).length > 0) throw new CliError('E_EXISTS', `${shown} already exists and is not empty`, { hint: 'choose an empty --out folder' });
}

/** A name beside `path` that nothing else uses, for content on its way there. */
const stagingName = (path: string) => temporaryBeside(path, 'converting');

/**
 * Converts the skill in its folder, all or nothing, and synchronously, so no other work (the end
 * of the process on a closed stdout among it) runs between two steps: the new files are written
 * beside their places first ('wx': never through or over anything), then renamed in, and the old
 * declaration goes last. If writing fails, the temporaries go and the skill is as it was.
 */
function replaceInPlace(dir: string, conversion: Conversion): void {
  const staged: [string, string][] = [];
  try {
    for (const f of conversion.files) {
      const temporary = stagingName(join(dir, f.path));
      writeFileSync(temporary, f.content, { flag: 'wx' });
      staged.push([temporary, join(dir, f.path)]);
    }
    for (const [temporary, file] of staged.splice(0)) renameSync(temporary, file);
  } finally {
    for (const [temporary] of staged) rmSync(temporary, { force: true });
  }
  for (const p of conversion.replaces) if (!conversion.files.some((f) => f.path === p)) rmSync(join(dir, p));
}

/**
 * Writes the converted skill into a folder beside --out, renamed into place once complete (over
 * an empty folder there, which rename replaces): the --out folder holds the whole skill or does
 * not change. Synchronous, for the reason {@link replaceInPlace} is.
 */
function writeOutFolder(dir: string, target: string, copies: readonly string[], conversion: Conversion): void {
  makeFolder(dirname(target));
  const staging = stagingName(target);
  mkdirSync(staging);
  try {
    for (const p of copies) {
      makeFolder(dirname(join(staging, p)));
      copyRegularFile(join(dir, p), join(staging, p), p);
    }
    for (const f of conversion.files) writeFileSync(join(staging, f.path), f.content, { flag: 'wx' });
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}
