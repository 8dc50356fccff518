import { appendFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { defineCommand } from 'citty';
import { RegistryConfig } from '../../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../../core/schemas/diagnostic.ts';
import { BuildCache } from '../../pipeline/cache.ts';
import { causedBy, validateRegistry, validateSkillFolder, within, type ValidationResult } from '../../pipeline/validate.ts';
import { DECLARATIONS, folderKind, foldersAbove, isRegistryRoot, linksSkillsFolder } from '../../pipeline/discover.ts';
import { GitError } from '../../publish/git-error.ts';
import type { PullRequestCheck } from '../../publish/pull-request.ts';
import { CliError, EXIT, systemReason } from '../_errors.ts';
import { formatArg, printReport, type OutputFormat } from '../_report.ts';
import { printable } from '../_output.ts';
import { progressLine } from '../_progress.ts';
import { displayPath, notUsable, registryConfig, requireRegistryRoot } from '../_registry-root.ts';

/**
 * What one validation run covers. A registry is checked whole (its config, every skill, the
 * registry-wide rules) and its report narrowed to `select` when only some of its folders were
 * named; a skill folder or a folder of skills outside any registry is checked on its own, with
 * the default rules.
 */
type Target =
  | { kind: 'registry'; root: string; config: RegistryConfig; select?: { path: string; asGiven: string }[] }
  | { kind: 'skill'; dir: string }
  | { kind: 'skills'; dir: string };

const PR_FLAGS = ['changed-since', 'against-index', 'summary'] as const;

export default defineCommand({
  meta: { name: 'validate', description: 'Validate skill folders, folders of skills or a registry, and report every problem as file:line:col rule message (rules: docs/rules.md)' },
  args: {
    paths: { type: 'positional', required: false, description: 'Skill folders, folders of skills or registry roots (default: the current folder); a path inside the skills folder of a registry above it is checked with that registry, and its report includes what it breaks in other skills (a name they share, callers it leaves rejected)' },
    root: { type: 'string', description: 'Registry root (holds skills/ and skilldex.config.json): paths inside its skills/ are checked with the whole registry, and files are shown relative to it' },
    format: formatArg,
    scan: { type: 'boolean', description: 'Run the security scanner too (--no-scan to skip)', default: true },
    'changed-since': { type: 'string', description: 'Pull-request mode: report only skills changed since the merge base with this git ref, and enforce immutable versions' },
    'against-index': { type: 'string', description: 'Also check versions against a published index.json (URL or file)' },
    summary: { type: 'string', description: 'Append a Markdown job summary to this file (e.g. "$GITHUB_STEP_SUMMARY")' },
  },
  async run({ args }) {
    const cwd = process.cwd();
    const rootArg = args.root as string | undefined;
    // Files are shown relative to the registry root when one is named (what GitHub annotations
    // and the job summary need), else relative to the current folder.
    const base = rootArg !== undefined ? resolve(rootArg) : cwd;
    const paths = ((args._ as string[] | undefined) ?? []).map(String);
    if (paths.some((p) => p === '')) throw new CliError('E_USAGE', 'an empty path was given', { hint: 'pass a skill folder, a folder of skills or a registry root', exitCode: EXIT.usage });
    const targets = await planTargets(paths, rootArg);

    // The summary is written after the whole check: a folder named there, or a file in a folder
    // that does not exist, would fail only then.
    if (args.summary !== undefined) {
      const summary = resolve(String(args.summary));
      if ((await stat(summary).catch(() => undefined))?.isDirectory()) {
        throw new CliError('E_USAGE', `--summary ${printable(String(args.summary))} is a folder`, { hint: 'name the file to append the summary to, such as "$GITHUB_STEP_SUMMARY"', exitCode: EXIT.usage });
      }
      if (!(await stat(dirname(summary)).catch(() => undefined))?.isDirectory()) {
        throw new CliError('E_USAGE', `--summary ${printable(String(args.summary))} is in a folder that does not exist`, { hint: 'create the folder first, or name a file in an existing one; the file itself is created if need be', exitCode: EXIT.usage });
      }
    }
    const changedSince = args['changed-since'] as string | undefined;
    const indexLocation = args['against-index'] as string | undefined;
    const pullRequest = PR_FLAGS.some((flag) => args[flag] !== undefined);
    const registry = targets[0];
    if (pullRequest && (targets.length !== 1 || registry?.kind !== 'registry')) {
      throw new CliError('E_USAGE', `--${PR_FLAGS.filter((f) => args[f] !== undefined).join(', --')} checks one registry`, {
        hint: 'name the registry with --root (default: the current folder), and pass only folders inside its skills/',
        exitCode: EXIT.usage,
      });
    }

    const progress = progressLine();
    const onProgress = (p: { phase: string; done: number; total: number }) => progress.update(p.phase, p.done, p.total);
    const diagnostics: ValidatorDiagnostic[] = [];
    const accepted: string[] = [];
    const rejected: { dir: string; name?: string }[] = [];
    let check: PullRequestCheck | undefined;
    try {
      for (const target of targets) {
        // The report lists diagnostics and names skills: drafts need not carry their bodies.
        const options = { scan: args.scan, reportOnly: true, onProgress };
        const unitRoot = target.kind === 'registry' ? target.root : dirname(target.dir);
        const result =
          // Named folders of a registry: only they and the skills they call need scanning (a
          // pull-request check reports on every changed skill, so it scans them all).
          target.kind === 'registry' ? await validateRegistry(target.root, { ...options, config: target.config, ...(await lastBuildCache(target.root, target.config, args.scan)), ...(target.select && !pullRequest ? { only: target.select.map((s) => s.path) } : {}) })
          : target.kind === 'skill' ? await validateSkillFolder(target.dir, options)
          // The folder the user named, as it is: the config's skillsDir grammar keeps a pull request's
          // config inside its repository, and would refuse a folder called `My Skills`.
          : await validateRegistry(unitRoot, { ...options, config: { ...RegistryConfig.parse({}), skillsDir: basename(target.dir) || '.' } });
        const shown = (file: string) => displayPath(base, join(unitRoot, file));
        let own = result.diagnostics;
        if (target.kind === 'registry' && pullRequest) {
          // Loaded only in pull-request mode: git, semver and index fetching cost a plain run ~40 ms of start-up.
          const { checkPullRequest } = await import('../../publish/pull-request.ts');
          const pr = await checkPullRequest({
            root: target.root,
            config: result.config,
            diagnostics: result.diagnostics,
            ...(changedSince !== undefined ? { changedSince } : {}),
            ...(indexLocation !== undefined ? { againstIndex: { source: indexLocation, index: await loadIndex(indexLocation) } } : {}),
          });
          own = pr.diagnostics;
          check = { ...pr, changes: pr.changes.map((c) => ({ ...c, dir: shown(c.dir) })) };
        }
        if (target.kind === 'registry' && !target.select && !pullRequest && skillCount(result) === 0 && own.length === 0) {
          throw new CliError('E_NO_SKILLS', `${printable(displayPath(cwd, join(target.root, target.config.skillsDir)))} holds no skills, so there is nothing to validate`, {
            hint: `a registry keeps its skills in ${target.config.skillsDir}/<name>/, each with SKILL.md or skill.json; 'skilldex new <name>' creates one`,
            exitCode: EXIT.usage,
          });
        }
        const report = target.kind === 'registry' ? narrow(result, own, target, base) : { result, diagnostics: own };
        // Related places (the other skill of a duplicate name…) are in the same frame as the file.
        // A loop, not push(...list): a list of 100,000 would overflow the stack as arguments.
        for (const d of report.diagnostics) diagnostics.push({ ...d, file: shown(d.file), ...(d.related ? { related: d.related.map((r) => ({ ...r, file: shown(r.file) })) } : {}) });
        for (const s of report.result.accepted) accepted.push(s.draft.name);
        for (const r of report.result.rejected) rejected.push({ dir: shown(r.dir), ...(r.name !== undefined ? { name: r.name } : {}) });
      }
    } catch (error) {
      if (error instanceof GitError) {
        throw new CliError('E_GIT', error.message, { hint: `--changed-since needs a git working tree and a ref that exists locally (in CI: check out with fetch-depth: 0 and pass origin/<base branch>)`, exitCode: EXIT.usage });
      }
      throw error;
    } finally {
      progress.end();
    }

    await printReport({ diagnostics }, args.format as OutputFormat, {
      extra: {
        accepted,
        rejected,
        ...(check ? { changes: check.changes.map(({ status, name, dir, before, after }) => ({ status, name, dir, before, after: after && { version: after.version, digest: after.digest } })) } : {}),
      },
    });
    if (args.summary) {
      const server = process.env.GITHUB_SERVER_URL;
      const repository = process.env.GITHUB_REPOSITORY;
      const sha = process.env.GITHUB_SHA;
      const { jobSummaryMarkdown } = await import('../../publish/summary.ts');
      const markdown = jobSummaryMarkdown({
        ...(changedSince !== undefined ? { base: changedSince } : {}),
        ...(check?.baseCommit ? { baseCommit: check.baseCommit } : {}),
        ...(indexLocation !== undefined ? { index: indexLocation } : {}),
        changes: check?.changes ?? [],
        diagnostics,
        checked: accepted.length + rejected.length,
        ...(server && repository && sha ? { rulesDoc: `${server}/${repository}/blob/${sha}/docs/rules.md` } : {}),
      });
      await appendFile(resolve(String(args.summary)), `${markdown}\n`);
    }
    return diagnostics.some((d) => d.severity === 'error') ? EXIT.failure : EXIT.ok;
  },
});

const skillCount = (result: ValidationResult) => result.accepted.length + result.rejected.length;

/**
 * Decides what each path is. A path inside the skills folder of the registry at `--root` (default:
 * the current folder), or of the nearest registry above it, is checked with that registry; any
 * other path by what it holds. With no path: the registry at `--root`, else the current folder,
 * whatever it holds.
 */
async function planTargets(paths: readonly string[], rootArg: string | undefined): Promise<Target[]> {
  const root = resolve(rootArg ?? '.');
  const registries = new Map<string, Extract<Target, { kind: 'registry' }>>();
  const targets: Target[] = [];
  const addRegistry = (at: string, config: RegistryConfig, select?: { path: string; asGiven: string }) => {
    let target = registries.get(at);
    if (!target) {
      target = { kind: 'registry', root: at, config, ...(select ? { select: [] } : {}) };
      registries.set(at, target);
      targets.push(target);
    }
    // A registry named whole stays whole; otherwise the selections add up.
    if (!select) delete target.select;
    else target.select?.push(select);
  };

  // The registry paths may belong to: the one at --root, or the current folder when it is one.
  let home: { root: string; config: RegistryConfig } | undefined;
  if (rootArg !== undefined) {
    home = { root, config: await requireRegistryRoot(root, rootArg, 'validate') };
    if (paths.length === 0) addRegistry(root, home.config);
  } else if (await isRegistry(root)) {
    home = { root, config: await registryConfig(root) };
  }
  const homeSkills = home && join(home.root, home.config.skillsDir);
  const given = paths.length > 0 || rootArg !== undefined ? paths : ['.'];

  for (const asGiven of given) {
    let abs = resolve(asGiven);
    let kind = await folderKind(abs);
    // `skilldex validate my-skill/SKILL.md` means the skill; `my-skill/skill.md` means its folder too,
    // which then gets the misnamed declaration's diagnostic rather than 'not a folder'.
    if (kind === 'file' && (DECLARATIONS as readonly string[]).includes(basename(abs))) {
      abs = dirname(abs);
      kind = 'skill';
    } else if (kind === 'file' && DECLARATIONS.some((d) => d.toLowerCase() === basename(abs).toLowerCase())) {
      abs = dirname(abs);
      kind = await folderKind(abs);
    }
    const unusable = notUsable(kind, asGiven);
    if (unusable) throw unusable;
    const enclosing = home && homeSkills && inside(abs, homeSkills) ? home : kind === 'registry' ? undefined : await enclosingRegistry(abs);
    if (enclosing) {
      addRegistry(enclosing.root, enclosing.config, { path: relative(enclosing.root, abs).split(sep).join('/'), asGiven });
    } else if (kind === 'registry' || (kind !== 'skill' && (await linksSkillsFolder(abs)))) {
      addRegistry(abs, await requireRegistryRoot(abs, asGiven, 'validate'));
    } else if (kind === 'skill' && basename(abs) !== '') {
      if (!targets.some((t) => t.kind === 'skill' && t.dir === abs)) targets.push({ kind: 'skill', dir: abs });
    } else if (kind === 'skills') {
      if (!targets.some((t) => t.kind === 'skills' && t.dir === abs)) targets.push({ kind: 'skills', dir: abs });
    } else {
      throw new CliError('E_NO_SKILLS', `${printable(asGiven)} holds no skills, so there is nothing to validate`, {
        hint: 'pass a skill folder (with SKILL.md or skill.json), a folder of skill folders, or a registry root (with skills/)',
        exitCode: EXIT.usage,
      });
    }
  }
  return targets;
}

const inside = (abs: string, folder: string) => abs === folder || abs.startsWith(`${folder}${sep}`);

/**
 * A registry root, or a folder whose skills/ is a link: `build` checks such a folder as a registry
 * and reports the link (files/symlink). Taken for a plain folder, it held no skills or had the
 * link reported under a path outside it.
 */
const isRegistry = async (abs: string) => (await isRegistryRoot(abs)) || (await linksSkillsFolder(abs));

/**
 * The nearest registry above `abs` whose skills folder holds it. A skill named from inside the
 * skills folder (`cd skills && skilldex validate flow`) is checked with its registry, as from the
 * registry root: alone, its calls to the other skills would be unknown and the registry's config
 * would not apply.
 */
async function enclosingRegistry(abs: string): Promise<{ root: string; config: RegistryConfig } | undefined> {
  for (const dir of await foldersAbove(abs)) {
    if (!(await isRegistry(dir))) continue;
    let config: RegistryConfig;
    try {
      config = await registryConfig(dir);
    } catch (error) {
      // A broken config stops only a validation of a path in that registry's skills folder (as
      // far as its default can tell), not of a skill that merely lies somewhere below it.
      if (inside(abs, join(dir, 'skills'))) throw error;
      continue;
    }
    if (inside(abs, join(dir, config.skillsDir))) return { root: dir, config };
  }
  return undefined;
}

/**
 * The report for the named folders of a registry: the diagnostics of every skill in or around
 * them, those they cause in other skills (a name another skill has too, a caller they break),
 * and the skills themselves. A named folder that holds no skill is a usage error, so a mistyped
 * folder never passes as "0 errors".
 */
function narrow(result: ValidationResult, diagnostics: readonly ValidatorDiagnostic[], target: Extract<Target, { kind: 'registry' }>, base: string) {
  if (!target.select) return { result, diagnostics };
  const selected = target.select.map((s) => s.path);
  const related = (dir: string, path: string) => within(dir, path) || within(path, dir);
  const all = [...result.accepted.map((a) => a.source.dir), ...result.rejected.map((r) => r.dir)];
  const dirs = all.filter((dir) => selected.some((s) => related(dir, s)));
  const caused = new Set(causedBy(diagnostics, [...selected, ...dirs], new Set(all)));
  // A diagnostic on a folder that holds a named one concerns it too: a skills folder that is a
  // link, a category folder that could not be listed.
  const kept = diagnostics.filter((d) => selected.some((s) => related(d.file, s)) || dirs.some((dir) => within(d.file, dir)) || caused.has(d));
  for (const { path, asGiven } of target.select) {
    if (!dirs.some((dir) => related(dir, path)) && !kept.some((d) => related(d.file, path))) {
      throw new CliError('E_NO_SKILLS', `${printable(asGiven)} holds no skills, so there is nothing to validate`, {
        hint: `skill folders of the registry at ${printable(displayPath(base, target.root))} are ${target.config.skillsDir}/<name>/ or ${target.config.skillsDir}/<category>/<name>/, each with SKILL.md or skill.json`,
        exitCode: EXIT.usage,
      });
    }
  }
  const chosen = new Set(dirs);
  return {
    diagnostics: kept,
    result: { ...result, accepted: result.accepted.filter((s) => chosen.has(s.source.dir)), rejected: result.rejected.filter((r) => chosen.has(r.dir)) },
  };
}

/**
 * What the last build of the registry recorded in its cache: a skill whose files are as that build
 * found them is neither read nor checked again, and its diagnostics are the ones the build found
 * with the same config and code (the cache is salted with both). Without such a file, none: a
 * validation that records nothing skips the stamps and the skills' bodies a cache would keep.
 */
async function lastBuildCache(root: string, config: RegistryConfig, scan: boolean): Promise<{ cache?: BuildCache }> {
  const cache = await BuildCache.ofLastBuild(root, config, { scan });
  return cache ? { cache } : {};
}

async function loadIndex(location: string) {
  try {
    const { loadPublishedIndex } = await import('../../publish/pull-request.ts');
    return await loadPublishedIndex(location);
  } catch (error) {
    const reason = systemReason(error) ?? (error as Error).message;
    throw new CliError('E_INDEX', `cannot read the published index ${printable(location)}: ${reason}`, { hint: 'pass the URL of a deployed index.json or a local copy', exitCode: EXIT.usage });
  }
}
