import { constants } from 'node:fs';
import { open, readdir, readlink } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { defineCommand } from 'citty';
import { parseFrontmatter } from '../../core/parse/frontmatter.ts';
import { parseJsonFile } from '../../core/parse/json-file.ts';
import { decodeUtf8 } from '../../core/parse/source-text.ts';
import type { Limits } from '../../core/schemas/config.ts';
import { loadConfig } from '../../pipeline/config.ts';
import { ConfigError } from '../../pipeline/config-error.ts';
import { folderKind, skillFoldersBelow } from '../../pipeline/discover.ts';
import { reaches, scanReport, scanSarifOptions, scanSkill, type ScanInputFile, type ScanVerdict, type SkillScanReport } from '../../scanner/index.ts';
import { CliError, EXIT } from '../_errors.ts';
import { err, printable, style } from '../_output.ts';
import { progressLine } from '../_progress.ts';
import { siteUrlOption } from '../_site-url.ts';
import { notUsable } from '../_registry-root.ts';
import { formatArg, printReport, type OutputFormat } from '../_report.ts';
import { isPermissionDenied } from '../../core-node/permission-denied.ts';

const FAIL_ON = ['fail', 'warn', 'review'] as const;
/** Guards against a skill folder that is really a whole disk or a runaway tree. */
const MAX_FILES_PER_SKILL = 10_000;
const MAX_DEPTH = 32;

interface SkillFolder {
  dir: string;
  name: string;
  files: ScanInputFile[];
  symlinks: { path: string; target?: string }[];
  /** Files the scanner could not be given, and why: it cannot vouch for what it did not read. */
  unscanned: { path: string; reason: string }[];
}

export default defineCommand({
  meta: { name: 'scan', description: 'Statically scan skills for malware patterns, prompt injection and leaked secrets (rules: docs/security.md)' },
  args: {
    paths: { type: 'positional', required: false, description: 'Skill folders, folders of skills, or a registry root (default: the current folder)' },
    format: formatArg,
    'fail-on': { type: 'enum', options: [...FAIL_ON] as string[], default: 'fail', description: 'Exit 1 when a skill\'s verdict is this bad or worse: fail, warn or review' },
    'site-url': { type: 'string', description: 'Public site URL for SARIF rule help links (default: siteUrl from skilldex.config.json)' },
  },
  async run({ args }) {
    const cwd = process.cwd();
    const positional = (args._ as string[] | undefined)?.filter((p) => p !== '') ?? [];
    const roots = positional.length > 0 ? positional : ['.'];
    let config;
    try {
      config = await loadConfig(cwd);
    } catch (error) {
      if (error instanceof ConfigError) throw new CliError('E_CONFIG', error.message, { hint: 'fix skilldex.config.json; its schema is schemas/config.schema.json', exitCode: EXIT.usage });
      throw error;
    }

    // A usage error before any skill is read.
    const siteUrl = siteUrlOption(args['site-url'] as string | undefined) ?? config.siteUrl;
    const dirs: string[] = [];
    const unlisted: string[] = [];
    for (const root of roots) dirs.push(...(await findSkillFolders(resolve(cwd, root), root, config.skillsDir, unlisted)));
    const unique = [...new Set(dirs)].sort();
    if (unique.length === 0 && unlisted.length === 0) {
      throw new CliError('E_NO_SKILLS', `no skill folders found in ${roots.join(', ')}`, {
        hint: 'pass a folder that contains SKILL.md or skill.json, or a folder of such folders',
        exitCode: EXIT.usage,
      });
    }

    const progress = progressLine();
    let reports: SkillScanReport[];
    let skills: SkillFolder[];
    try {
      skills = await Promise.all(unique.map((dir) => readSkillFolder(dir, config.limits)));
      reports = skills.map((skill, i) => {
        progress.update('scanning', i, skills.length);
        const knownNames = skills.filter((s) => s !== skill).map((s) => s.name);
        const result = scanSkill({ name: skill.name, files: skill.files, symlinks: skill.symlinks, knownNames }, { rules: config.scan.rules });
        return { name: skill.name, path: displayDir(cwd, skill.dir), result };
      });
      progress.update('scanning', skills.length, skills.length);
    } finally {
      progress.end();
    }

    await printReport(scanReport(reports), args.format as OutputFormat, { sarif: () => scanSarifOptions(siteUrl) });
    const unscanned = [
      // A folder that could not be listed may hold skills: saying nothing would pass them unseen.
      ...[...new Set(unlisted)].sort().map((dir) => ({ path: displayDir(cwd, dir), reason: 'the folder cannot be listed (no permission?), so no skill in it was scanned' })),
      ...skills.flatMap((skill) => skill.unscanned.map((u) => ({ ...u, path: u.path ? `${displayDir(cwd, skill.dir)}/${u.path}` : displayDir(cwd, skill.dir) }))),
    ];
    for (const u of unscanned) err(`${style.yellow('not scanned', process.stderr)} ${printable(u.path)}: ${u.reason}`);
    if (unscanned.length > 0) err(`hint: 'skilldex validate' reports these files with their rules; a skill that holds them is not published`);
    const threshold = args['fail-on'] as ScanVerdict;
    return unscanned.length > 0 || reports.some((r) => reaches(r.result.verdict, threshold)) ? EXIT.failure : EXIT.ok;
  },
});

const displayDir = (cwd: string, dir: string): string => relative(cwd, dir).split(sep).join('/') || '.';

/**
 * A skill folder itself, the skills of a registry root (in its skills folder), or the skills one or
 * two levels below any other folder: `scan` finds what `validate` finds from the same folder.
 */
async function findSkillFolders(dir: string, asGiven: string, skillsDir: string, unlisted: string[]): Promise<string[]> {
  const kind = await folderKind(dir);
  const unusable = notUsable(kind, asGiven, 'a skill folder or a folder of skills');
  if (unusable) throw unusable;
  if (kind === 'skill') return [dir];
  if (kind === 'registry' && (await folderKind(join(dir, skillsDir))) !== 'missing') return skillFoldersBelow(join(dir, skillsDir), Infinity, unlisted);
  return skillFoldersBelow(dir, Infinity, unlisted);
}

/** Reads every file of a skill without following symlinks; links are listed for the scanner to report. */
async function readSkillFolder(dir: string, limits: Limits): Promise<SkillFolder> {
  const files: ScanInputFile[] = [];
  const symlinks: { path: string; target?: string }[] = [];
  const unscanned: SkillFolder['unscanned'] = [];
  const walk = async (abs: string, rel: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return;
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch (error) {
      // One folder that cannot be listed is reported; the rest of the skill, and the other skills, are scanned.
      const code = (error as NodeJS.ErrnoException).code;
      unscanned.push({ path: rel, reason: `the folder cannot be listed (${isPermissionDenied(code) ? 'permission denied' : (code ?? 'error')}), so nothing in it was scanned` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (files.length >= MAX_FILES_PER_SKILL) return;
      const path = rel ? `${rel}/${e.name}` : e.name;
      const full = join(abs, e.name);
      if (e.isSymbolicLink()) symlinks.push({ path, target: await readlink(full).catch(() => undefined) });
      else if (e.isDirectory()) {
        if (e.name !== '.git') await walk(full, path, depth + 1);
      } else if (e.isFile()) {
        const read = await readRegularFile(full, limits.maxFileBytes);
        if (read instanceof Uint8Array) files.push({ path, bytes: read });
        else unscanned.push({ path, reason: read.reason });
      } else unscanned.push({ path, reason: 'not a regular file (a pipe, socket or device)' });
    }
  };
  await walk(dir, '', 0);
  return { dir, name: declaredName(dir, files, limits), files, symlinks, unscanned };
}

/**
 * A file's bytes, or why they were not read: over the registry's limit for one file (a 3 GB file
 * would not fit in memory, and is refused by validation anyway), or no longer a regular file. It
 * is opened without following a link and without blocking, so a pipe put in its place since the
 * listing can neither redirect nor stall the read.
 */
async function readRegularFile(path: string, maxBytes: number): Promise<Uint8Array | { reason: string }> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch(() => undefined);
  if (!handle) return { reason: 'could not be opened' };
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { reason: 'not a regular file (a pipe, socket or device)' };
    if (info.size > maxBytes) return { reason: `${info.size} bytes, over the ${maxBytes}-byte limit for one file (files/too-large)` };
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/**
 * The name from SKILL.md frontmatter or skill.json, read by the validator's own parsers, else the
 * folder name (typosquat checks need it). A declaration that does not parse is the validator's to
 * report; the scan goes on under the folder's name.
 */
function declaredName(dir: string, files: readonly ScanInputFile[], limits: Limits): string {
  const text = (p: string) => {
    const f = files.find((x) => x.path === p);
    const decoded = f ? decodeUtf8(f.bytes) : undefined;
    return decoded?.ok ? decoded.source : undefined;
  };
  const md = text('SKILL.md');
  const json = md ? undefined : text('skill.json');
  const data = md ? parseFrontmatter(md, limits).data : json ? parseJsonFile(json, limits).data : undefined;
  const name = data && typeof data === 'object' ? (data as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name !== '' ? name : basename(dir);
}
