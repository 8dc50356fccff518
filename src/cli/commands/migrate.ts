import { constants, copyFileSync, linkSync, lstatSync, readFileSync, closeSync, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { defineCommand } from 'citty';
import fg from 'fast-glob';
import { loadConfig, validateRegistry } from '../../pipeline/index.ts';
import { MigrationError } from '../../publish/migration-error.ts';
import { planMigration, type LegacySkill, type MigrationOp, type MigrationPlan } from '../../publish/migrate.ts';
import { CliError, cliFailure, EXIT, systemReason } from '../_errors.ts';
import { printReport } from '../_report.ts';
import { err, out, printable, style } from '../_output.ts';
import { makeFolder } from '../../core-node/make-folder.ts';
import { temporaryBeside } from '../../core-node/write-atomically.ts';
import { openNoFollow } from '../../core-node/read-own-file.ts';
import { linkAtOrOnTheWay } from '../../core-node/link-on-the-way.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../../core/schemas/config.ts';

/** What became of one skill folder: its plan (carried out unless --dry-run), or why it was left as it was. */
type Outcome = { folder: string; plan: MigrationPlan; failure?: undefined } | { folder: string; failure: MigrationError };

export default defineCommand({
  meta: { name: 'migrate', description: 'Migrate legacy skills (SKILL.md with code blocks, METADATA.yml + scripts/main.ts) to the extended package layout; each skill all or nothing, never through a symbolic link' },
  args: {
    'skill-dir': { type: 'string', description: 'Folder holding the skills', default: 'skills' },
    'dry-run': { type: 'boolean', description: 'Print the plan and write nothing', default: false },
    validate: { type: 'boolean', description: 'Validate the migrated skills afterwards (with --dry-run: in a scratch copy)', default: false },
    backup: { type: 'boolean', description: 'Keep the originals as SKILL.md.legacy / METADATA.yml.legacy (--no-backup to delete them)', default: true },
  },
  async run({ args }) {
    const skillsDir = resolve(String(args['skill-dir']));
    // Validate and build refuse a linked skills folder: never write through one.
    const link = linkAtOrOnTheWay(process.cwd(), skillsDir);
    if (link !== undefined) throw new CliError('E_SYMLINK', `${printable(relative(process.cwd(), link) || link)} is a symbolic link; skilldex migrate never writes through a link`, { hint: 'replace the link with the real folder' });
    const folders = await legacyCandidates(skillsDir);
    if (folders.length === 0) throw new CliError('E_NO_SKILLS', `no skill folders under ${String(args['skill-dir'])}`, { hint: 'pass --skill-dir with the folder that holds your skills', exitCode: EXIT.usage });

    const outcomes: Outcome[] = [];
    for (const folder of folders) {
      const abs = join(skillsDir, folder);
      try {
        const special: string[] = [];
        const plan = planMigration(await readLegacySkill(abs, basename(folder), special), { backup: args.backup });
        // A pipe, socket or device left out in silence could change the plan (a FIFO at
        // scripts/main.ts made another script the entry): a skill to migrate must have none.
        if (plan.status === 'migrate' && special[0] !== undefined) {
          throw new MigrationError(special[0], 'is not a regular file (a pipe, socket or device), so nothing of this skill was changed', { hint: 'remove it, then run skilldex migrate again' });
        }
        if (plan.status === 'migrate') refuseUnsafeOps(abs, plan.ops);
        outcomes.push({ folder, plan });
      } catch (error) {
        outcomes.push({ folder, failure: asMigrationError(error, abs) });
      }
    }

    let workDir = skillsDir;
    let scratch: string | undefined;
    if (args['dry-run'] && args.validate) {
      // Validate the plan without touching the real folder: apply it to a scratch copy.
      scratch = await mkdtemp(join(tmpdir(), 'skilldex-migrate-'));
      workDir = join(scratch, basename(skillsDir));
      // Pipes, sockets and devices cannot be copied (and are not published): the copy leaves them out.
      await cp(skillsDir, workDir, { recursive: true, filter: (source) => { const info = lstatSync(source, { throwIfNoEntry: false }); return !info || info.isFile() || info.isDirectory() || info.isSymbolicLink(); } });
    }
    try {
      // Every skill is migrated before anything is printed: a reader that stops reading early
      // (`skilldex migrate | head -1`) ends the process at the next write, and must never end it
      // between two files of one skill.
      if (!args['dry-run'] || scratch) {
        for (const [i, outcome] of outcomes.entries()) {
          if (outcome.failure || outcome.plan.status !== 'migrate') continue;
          const abs = join(workDir, outcome.folder);
          try {
            applyPlan(abs, outcome.plan.ops);
          } catch (error) {
            outcomes[i] = { folder: outcome.folder, failure: asMigrationError(error, abs) };
          }
        }
      }
      const failed = report(outcomes, skillsDir, Boolean(args['dry-run']));
      if (!args.validate) return failed ? EXIT.failure : EXIT.ok;
      const root = dirname(workDir);
      const config = { ...(await loadConfig(dirname(skillsDir))), skillsDir: basename(workDir) };
      const { diagnostics } = await validateRegistry(root, { config, scan: false });
      const dirs = outcomes.filter((o) => !o.failure && o.plan.status === 'migrate').map((o) => `${basename(workDir)}/${o.folder}/`);
      const mine = diagnostics.filter((d) => dirs.some((dir) => d.file.startsWith(dir)));
      await printReport({ diagnostics: mine }, 'human');
      return failed || mine.some((d) => d.severity === 'error') ? EXIT.failure : EXIT.ok;
    } finally {
      if (scratch) await rm(scratch, { recursive: true, force: true });
    }
  },
});

/** Prints each skill's plan (or why it failed) and the tally; returns how many failed. */
function report(outcomes: readonly Outcome[], skillsDir: string, dryRun: boolean): number {
  // Folder names, fields and messages come from the skills: their control characters are shown, not sent.
  const shown = (folder: string) => printable(relative(process.cwd(), join(skillsDir, folder)) || '.');
  let migrating = 0;
  let failed = 0;
  for (const outcome of outcomes) {
    const { folder, failure } = outcome;
    if (failure) {
      failed++;
      const at = failure.position ? `:${failure.position.line}:${failure.position.column}` : '';
      err(`${style.red('error', process.stderr)} ${shown(folder)}/${printable(failure.file)}${at} ${printable(failure.message)}`);
      if (failure.hint) err(`hint: ${printable(failure.hint)}`);
      continue;
    }
    const { plan } = outcome;
    if (plan.status === 'skip') {
      out(`${style.dim('skip')}    ${shown(folder)}: ${printable(plan.reason ?? '')}`);
      continue;
    }
    migrating++;
    out(`${style.green('migrate')} ${shown(folder)}${dryRun ? ' (dry run)' : ''}`);
    for (const op of plan.ops) out(`  ${printable(describe(op))}`);
    for (const note of plan.notes) out(`  ${style.dim('note')} ${printable(note)}`);
  }
  out(`${migrating} to migrate, ${outcomes.length - migrating - failed} skipped${failed ? `, ${failed} failed` : ''}`);
  return failed;
}

function describe(op: MigrationOp): string {
  switch (op.kind) {
    case 'backup': return `backup ${op.from} → ${op.to}`;
    case 'move': return `move   ${op.from} → ${op.to}`;
    case 'delete': return `delete ${op.path}`;
    case 'write': return `write  ${op.path}`;
  }
}

/** The file an op creates, if any, and the one it retires. */
const createdBy = (op: MigrationOp): string | undefined => (op.kind === 'write' ? op.path : op.kind === 'delete' ? undefined : op.to);

/**
 * Refuses, before anything is written, a plan that would write through a symbolic link (at a
 * file or at a folder on the way; a link's target may be anywhere, outside the skill too), or
 * replace a file that is there: a backup from an earlier migration, a file a move lands on, an
 * earlier extraction. The skill's SKILL.md itself is replaced by design, after its backup.
 */
function refuseUnsafeOps(dir: string, ops: readonly MigrationOp[]): void {
  const inspected = new Set<string>();
  const inspect = (path: string): Stats | undefined => {
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const at = segments.slice(0, i).join('/');
      const info = lstatSync(join(dir, at), { throwIfNoEntry: false });
      if (!info) return undefined;
      if (info.isSymbolicLink()) {
        const what = i === segments.length && !ops.some((op) => createdBy(op)?.startsWith(`${path}/`)) ? 'file' : 'folder';
        throw new MigrationError(at, 'is a symbolic link; migrate never writes through a link, so nothing of this skill was changed', { hint: `replace the link with a real ${what}, then run skilldex migrate again` });
      }
      if (i < segments.length && !info.isDirectory()) throw new MigrationError(at, `is not a folder, and ${path} must go inside it; nothing of this skill was changed`, { hint: 'move that file out of the way, then run skilldex migrate again' });
      if (i === segments.length) return info;
    }
    return undefined;
  };
  for (const op of ops) {
    for (const path of op.kind === 'write' ? [op.path] : op.kind === 'delete' ? [op.path] : [op.from, op.to]) {
      if (inspected.has(path)) continue;
      inspected.add(path);
      const info = inspect(path);
      if (!info || path !== createdBy(op)) continue;
      if (!info.isFile()) throw new MigrationError(path, 'is in the way and is not a regular file; nothing of this skill was changed', { hint: 'remove it or move it elsewhere, then run skilldex migrate again' });
      const replaced = ops.some((o) => (o.kind === 'backup' || o.kind === 'delete') && (o.kind === 'backup' ? o.from : o.path) === path);
      const same = op.kind === 'write' && readFileSync(join(dir, path), 'utf8') === op.content;
      if (!replaced && !same) throw new MigrationError(path, 'already exists; migrate never overwrites a file, so nothing of this skill was changed', { hint: 'move it elsewhere (or merge it by hand and remove it), then run skilldex migrate again' });
    }
  }
}

/**
 * Carries out a plan all or nothing, synchronously, so that no other work (the end of the
 * process on a closed stdout among it) runs between two of its steps. New content is written
 * first, into temporaries beside its files; a failure there removes them and the folders made
 * for them, and the skill is as it was. Then the temporaries are renamed into place, the moves
 * done and the backups made, and the old declaration is replaced or retired last.
 *
 * A process killed at any point (kill -9, a power cut) leaves every file a reader sees whole:
 * only hidden temporaries are ever written part way. SKILL.md in particular is replaced by one
 * rename over it, so it is the old file or the new one, never missing and never cut short; the
 * old one is kept for an undo under a second name made first. A backup appears whole too.
 */
function applyPlan(dir: string, ops: readonly MigrationOp[]): void {
  const temporaries = new Map<string, string>();
  const madeFolders: string[] = [];
  const folderFor = (path: string) => {
    const made = makeFolder(dirname(join(dir, path)));
    if (made) madeFolders.push(made);
  };
  try {
    for (const op of ops) {
      if (op.kind === 'move') folderFor(op.to);
      if (op.kind !== 'write') continue;
      folderFor(op.path);
      const temporary = temporaryBeside(join(dir, op.path), 'migrating');
      // 'wx': a file of that name is never written through or over.
      writeFileSync(temporary, op.content, { flag: 'wx' });
      temporaries.set(op.path, temporary);
    }
  } catch (error) {
    for (const temporary of temporaries.values()) rmSync(temporary, { force: true });
    for (const folder of madeFolders.reverse()) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const retired = new Set(ops.flatMap((op) => (op.kind === 'backup' ? [op.from] : op.kind === 'delete' ? [op.path] : [])));
  // Each step records how to take it back: a step that fails (a rename the folder's permissions
  // refuse) undoes the ones before it, so the skill is left as it was, not half migrated. A file
  // the migration replaces or deletes is set aside until every step has succeeded.
  const undo: (() => void)[] = [];
  const setAside: string[] = [];
  const place = (path: string) => {
    renameSync(temporaries.get(path)!, join(dir, path));
    temporaries.delete(path);
    undo.push(() => rmSync(join(dir, path), { force: true }));
  };
  const retire = (path: string) => {
    const aside = temporaryBeside(join(dir, path), 'retired');
    const temporary = temporaries.get(path);
    // A file that is replaced keeps its place until the new one is renamed over it, and stays
    // reachable by a second name: renaming it away first left a moment with no SKILL.md at all.
    if (temporary === undefined) renameSync(join(dir, path), aside);
    else secondName(join(dir, path), aside);
    setAside.push(aside);
    // Undone by renaming it back over the new file: an undo never leaves the skill without it either.
    undo.push(() => renameSync(aside, join(dir, path)));
    if (temporary === undefined) return;
    renameSync(temporary, join(dir, path));
    temporaries.delete(path);
  };
  try {
    for (const path of temporaries.keys()) if (!retired.has(path)) place(path);
    for (const op of ops) {
      if (op.kind !== 'move') continue;
      renameSync(join(dir, op.from), join(dir, op.to));
      undo.push(() => renameSync(join(dir, op.to), join(dir, op.from)));
    }
    for (const op of ops) {
      if (op.kind !== 'backup') continue;
      secondName(join(dir, op.from), join(dir, op.to));
      undo.push(() => rmSync(join(dir, op.to), { force: true }));
    }
    for (const path of retired) retire(path);
  } catch (error) {
    for (const step of undo.reverse()) {
      try {
        step();
      } catch {
        // Best effort: what could not be undone is named by the error reported for the skill.
      }
    }
    for (const folder of madeFolders.reverse()) rmSync(folder, { recursive: true, force: true });
    throw error;
  } finally {
    for (const temporary of temporaries.values()) rmSync(temporary, { force: true });
  }
  for (const aside of setAside) rmSync(aside, { force: true });
}

/** Errors of a file system that cannot give a file a second name (FAT, some network shares). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);

/**
 * Gives the file at `from` the name `to` too, whole at once and never over a file that is there:
 * a hard link, which neither copies the bytes nor can be seen half made. Where the file system has
 * no hard links, a copy into a temporary renamed to `to`, which is as whole (refuseUnsafeOps has
 * made sure nothing is at `to`). The later rename of a new file over `from` leaves `to` the old one.
 */
function secondName(from: string, to: string): void {
  try {
    linkSync(from, to);
    return;
  } catch (error) {
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
  const temporary = temporaryBeside(to, 'copying');
  try {
    copyFileSync(from, temporary, constants.COPYFILE_EXCL);
    renameSync(temporary, to);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * The error a skill's migration failed with, as a {@link MigrationError} naming the file: the
 * planner's own, or a file system error (a file that cannot be read or written).
 */
function asMigrationError(error: unknown, dir: string): MigrationError {
  if (error instanceof MigrationError) return error;
  const reason = systemReason(error);
  if (!reason) throw error;
  const { path, syscall } = error as NodeJS.ErrnoException;
  const file = path === undefined ? '.' : relative(dir, path).split(sep).join('/');
  return new MigrationError(file, `cannot ${syscall ?? 'use'} it: ${reason}`, { hint: cliFailure(error)?.hint, cause: error });
}

/**
 * The legacy skill as the planner reads it: its regular files (dot-entries and node_modules left
 * out), listed without following links, and the text of the ones it reads, each opened without
 * following a link put in its place since the listing. Pipes, sockets and devices go to `special`.
 */
async function readLegacySkill(dir: string, folderName: string, special: string[]): Promise<LegacySkill> {
  const paths = await listFiles(dir, special);
  const texts = new Map<string, string>();
  for (const p of paths) if (/\.(md|ya?ml|[cm]?[jt]s)$/i.test(p)) texts.set(p, readRegularFile(dir, p));
  return { folderName, paths, read: (p) => texts.get(p) };
}

function readRegularFile(dir: string, path: string): string {
  const opened = openNoFollow(join(dir, path));
  if (!opened) throw new MigrationError(path, 'is a symbolic link; migrate never reads through a link, so nothing of this skill was changed', { hint: 'replace the link with a real file, then run skilldex migrate again' });
  try {
    if (!opened.info.isFile()) throw new MigrationError(path, 'is not a regular file', { hint: 'remove it, then run skilldex migrate again' });
    // A file no registry would publish is not read into memory (700 MB stopped the whole run).
    if (opened.info.size > DEFAULT_MAX_FILE_BYTES) throw new MigrationError(path, `is larger than ${DEFAULT_MAX_FILE_BYTES / 1024 / 1024} MB, more than a skill may publish`, { hint: 'move the data out of the skill, then run skilldex migrate again' });
    return readFileSync(opened.fd, 'utf8');
  } finally {
    closeSync(opened.fd);
  }
}

/** Skill folders (`<name>/` or `<category>/<name>/`) holding SKILL.md or METADATA.yml; nested ones belong to their outer skill. */
async function legacyCandidates(skillsDir: string): Promise<string[]> {
  const found = await fg(['*/{SKILL.md,METADATA.yml,METADATA.yaml}', '*/*/{SKILL.md,METADATA.yml,METADATA.yaml}'], { cwd: skillsDir, dot: false, onlyFiles: true, followSymbolicLinks: false }).catch(() => [] as string[]);
  const dirs = [...new Set(found.map((f) => f.slice(0, f.lastIndexOf('/'))))].sort();
  return dirs.filter((d) => !dirs.some((o) => o !== d && d.startsWith(`${o}/`)));
}

async function listFiles(dir: string, special: string[], prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const path = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) files.push(...(await listFiles(dir, special, path)));
    else if (e.isFile()) files.push(path);
    // Links are refused where the plan touches them; anything else that is no file is noted.
    else if (!e.isSymbolicLink()) special.push(path);
  }
  return files;
}
