import { access, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { defineCommand } from 'citty';
import { loadConfig, validateRegistry } from '../../pipeline/index.ts';
import { BuildCache } from '../../pipeline/cache.ts';
import { declaredIdentity } from '../../core/parse/declared-identity.ts';
import { readRegularFile } from '../../core-node/read-own-file.ts';
import { CONFIG_FILE } from '../../pipeline/config-file.ts';
import type { ValidatedSkill } from '../../pipeline/phases/decide.ts';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import { FUNCTION_MODES, type FunctionMode } from '../../core/schemas/skill-json.ts';
import { ScaffoldError } from '../../publish/scaffold-error.ts';
import { clashingSkill, SCAFFOLD_FORMATS, scaffold, type Callee, type ExistingSkill, type ScaffoldFormat } from '../../publish/scaffold.ts';
import { CliError, EXIT } from '../_errors.ts';
import { err, out, printable, style } from '../_output.ts';
import { closest } from '../../core/suggest.ts';
import { makeFolder } from '../../core-node/make-folder.ts';
import { linkOnTheWay } from '../../core-node/link-on-the-way.ts';

/** Prompts only with a person at a terminal; CI and pipes get flags and defaults, never a hang. */
const interactive = () => Boolean(process.stdin.isTTY && process.stdout.isTTY) && !process.env.CI;

export default defineCommand({
  meta: { name: 'new', description: 'Scaffold a skill that validates: skill-md, package, skill-json (code|llm|composite) or script (formats: docs/README.md)' },
  args: {
    name: { type: 'positional', required: false, description: 'Skill name: kebab-case (skill.json: snake_case; kebab is converted)' },
    format: { type: 'string', description: `One of ${SCAFFOLD_FORMATS.join(', ')} (default skill-md)` },
    mode: { type: 'string', description: `skill-json only: ${FUNCTION_MODES.join(', ')} (default code)` },
    dir: { type: 'string', description: "Skills folder (default: skilldex.config.json's skillsDir, else skills)" },
    category: { type: 'string', description: 'Category folder (and category field), e.g. text' },
    description: { type: 'string', description: 'One sentence: what the skill does and when to use it' },
    calls: { type: 'string', description: 'composite only: comma-separated names of existing skills to call' },
  },
  async run({ args }) {
    const answers = interactive() ? await ask(args, (calls, category) => callsProblem(args.dir === undefined ? undefined : String(args.dir), category, calls)) : args;
    const name = answers.name ? String(answers.name) : '';
    if (!name) throw new CliError('E_USAGE', 'missing the skill name', { hint: "skilldex new my-skill --format skill-md", exitCode: EXIT.usage });
    const format = String(answers.format ?? 'skill-md') as ScaffoldFormat;
    if (!SCAFFOLD_FORMATS.includes(format)) throw new CliError('E_USAGE', `unknown format '${format}'`, { hint: `use one of ${SCAFFOLD_FORMATS.join(', ')}`, exitCode: EXIT.usage });
    const mode = String(answers.mode ?? 'code') as FunctionMode;
    if (!FUNCTION_MODES.includes(mode)) throw new CliError('E_USAGE', `unknown mode '${mode}'`, { hint: `use one of ${FUNCTION_MODES.join(', ')}`, exitCode: EXIT.usage });
    if (answers.mode !== undefined && format !== 'skill-json') {
      const hint = answers.format === undefined ? `add --format skill-json: skilldex new ${name} --format skill-json --mode ${mode}` : `drop --mode for --format ${format}, or use --format skill-json`;
      throw new CliError('E_USAGE', '--mode applies to --format skill-json only', { hint, exitCode: EXIT.usage });
    }

    const { root, skillsDir, category, plainSkillsDir } = await placeOf(args.dir === undefined ? undefined : String(args.dir), answers.category ? String(answers.category) : undefined);
    if (answers.calls !== undefined && !(format === 'skill-json' && mode === 'composite')) {
      throw new CliError('E_USAGE', '--calls applies to --format skill-json --mode composite only', { hint: `drop --calls, or scaffold a composite: skilldex new ${name} --format skill-json --mode composite --calls …`, exitCode: EXIT.usage });
    }
    const existing = await existingSkills(root, skillsDir);
    const calls = format === 'skill-json' && mode === 'composite' ? resolveCallees(existing.accepted, skillsDir, answers.calls ? String(answers.calls) : undefined) : [];
    let plan;
    try {
      plan = scaffold({
        name,
        format,
        mode,
        ...(answers.description ? { description: String(answers.description) } : {}),
        ...(category ? { category } : {}),
        calls,
      });
    } catch (error) {
      if (error instanceof ScaffoldError) throw new CliError('E_SCAFFOLD', error.message, { hint: error.hint, exitCode: EXIT.usage });
      throw error;
    }

    const target = join(skillsDir, plan.folder);
    // Validate and build refuse a linked skills or category folder: never write through one.
    const link = linkOnTheWay(root, target);
    if (link !== undefined) throw new CliError('E_SYMLINK', `${printable(relative(process.cwd(), join(root, link)) || link)} is a symbolic link; skilldex new never writes through a link`, { hint: 'replace the link with the real folder' });
    if (await exists(target)) throw new CliError('E_EXISTS', `${relative(process.cwd(), target) || target} already exists`, { hint: 'choose another name, or edit the existing skill' });
    const clash = clashingSkill(plan.name, format, existing.names);
    if (clash) {
      throw new CliError('E_NAME_TAKEN', `the name '${plan.name}' is taken by the skill in ${printable(relative(process.cwd(), join(root, clash.dir)) || '.')} ('${printable(clash.name)}')`, {
        hint: 'choose another name: names are compared ignoring case, and a skill.json name in kebab-case too (code_review is code-review); validate would refuse both skills',
      });
    }
    for (const file of plan.files) {
      makeFolder(dirname(join(target, file.path)));
      await writeFile(join(target, file.path), file.content, { flag: 'wx' });
    }
    const shown = relative(process.cwd(), target) || '.';
    out(`${style.green('created')} ${plan.name} (${format}${format === 'skill-json' ? `, ${mode}` : ''}) in ${shown}/`);
    for (const file of plan.files) out(`  ${shown}/${file.path}`);
    out('');
    out('next:');
    out(`  1. edit ${shown}/${plan.files[0]?.path ?? ''} — the description is what agents match on`);
    // A plain `validate` checks ./skills; a skill made anywhere else is named.
    out(`  2. npx skilldex validate${target === join(plainSkillsDir, plan.folder) ? '' : ` ${shown}`}`);
    out(`  3. ${await buildStep()}, then open a pull request${(await exists('CONTRIBUTING.md')) ? ' (see CONTRIBUTING.md)' : ''}`);
    return EXIT.ok;
  },
});

/**
 * How this project builds its registry: its own `npm run build` in a registry checkout (which
 * builds the site too), the CLI's `build` where Skilldex is only installed as a package.
 */
async function buildStep(): Promise<string> {
  try {
    const manifest = JSON.parse(await readFile('package.json', 'utf8')) as { scripts?: Record<string, unknown> };
    if (typeof manifest.scripts?.build === 'string') return 'npm run build';
  } catch {
    // No package.json here, or not one that can be read: the CLI builds the registry.
  }
  return 'npx skilldex build';
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** What `--calls` may name instead: the closest name to each missing one, then the skills there are (a dozen, and how many more). */
function callsHint(missing: readonly string[], names: readonly string[]): string {
  if (names.length === 0) return 'there are no skills to call yet; create the skills first, or leave out --calls';
  const meant = [...new Set(missing.flatMap((name) => closest(name, names) ?? []))];
  const shown = names.slice(0, 12).join(', ');
  const more = names.length > 12 ? `, … and ${names.length - 12} more` : '';
  return `${meant.length > 0 ? `did you mean ${meant.map((n) => `'${n}'`).join(', ')}? ` : ''}the ${names.length} skills: ${shown}${more}`;
}

/**
 * The skills already in the skills folder: the names a new skill must not take (rejected skills
 * included, since a clash with one still fails both) and the accepted ones a composite can call.
 */
async function existingSkills(root: string, skillsDir: string): Promise<{ accepted: ValidatedSkill[]; names: ExistingSkill[] }> {
  if (!(await exists(skillsDir))) return { accepted: [], names: [] };
  const config = { ...(await loadConfig(root)), skillsDir: relative(root, skillsDir) || '.' };
  // What the last build recorded answers for every skill unchanged since (lstat alone): in a
  // registry of 10,000 skills, reading and checking each one took seconds.
  const cache = await BuildCache.ofLastBuild(root, config, { scan: true });
  const { accepted, rejected } = await validateRegistry(root, { config, reportOnly: true, ...(cache ? { cache, scan: true } : { scan: false }) });
  const names: ExistingSkill[] = accepted.map((s) => ({ name: s.draft.name, format: s.draft.format, dir: s.source.dir }));
  for (const r of rejected) {
    // A rejected skill has no draft to tell its format and often none to tell its name (one named
    // unlike its folder): its declaration file does. One whose name cannot be read (broken
    // frontmatter) still takes its folder's name: fixed, it will likely declare that one, and
    // validate would then refuse both skills.
    const format = (await exists(join(root, r.dir, 'skill.json'))) ? 'skill-json' : 'skill-md';
    names.push({ name: r.name ?? declaredName(join(root, r.dir), format, config) ?? basename(r.dir), format, dir: r.dir });
  }
  return { accepted, names };
}

/** The name a rejected skill's declaration gives, read as validate reads it (no links, within the size limit). */
function declaredName(dir: string, format: 'skill-json' | 'skill-md', config: RegistryConfig): string | undefined {
  const declaration = format === 'skill-json' ? 'skill.json' : 'SKILL.md';
  const bytes = readRegularFile(join(dir, declaration), config.limits.maxFileBytes);
  return bytes ? declaredIdentity(declaration, bytes, config.limits).name : undefined;
}

/**
 * The skills a composite scaffold calls: `--calls a,b` must name skills that exist (the
 * validator's `registry/unknown-call` would fail otherwise); without it, the first two function
 * skills of the registry make a working example.
 */
function resolveCallees(accepted: readonly ValidatedSkill[], skillsDir: string, list: string | undefined): Callee[] {
  const byName = new Map(accepted.map((s) => [s.draft.name, s.draft]));
  if (list !== undefined) {
    const names = list.split(',').map((s) => s.trim()).filter(Boolean);
    const missing = names.filter((n) => !byName.has(n));
    if (names.length === 0 || missing.length > 0) {
      throw new CliError('E_CALLS', names.length === 0 ? '--calls is empty' : `--calls names skills that are not in ${relative(process.cwd(), skillsDir) || '.'}: ${missing.join(', ')}`, {
        hint: callsHint(missing, [...byName.keys()].sort()),
        exitCode: EXIT.usage,
      });
    }
    return names.map((n) => ({ name: n, input: byName.get(n)?.inputSchema as Record<string, unknown> | undefined }));
  }
  const functions = accepted.filter((s) => s.draft.format === 'skill-json' && s.draft.mode !== 'composite');
  const pick = (functions.length > 0 ? functions : accepted).slice(0, 2);
  if (pick.length === 0) {
    throw new CliError('E_CALLS', 'a composite skill calls other skills, and this registry has none yet', { hint: 'create one first (skilldex new my-step --format skill-json --mode code), then pass --calls my_step', exitCode: EXIT.usage });
  }
  err(`${style.dim('calls (pass --calls to choose):', process.stderr)} ${pick.map((s) => s.draft.name).join(', ')}`);
  return pick.map((s) => ({ name: s.draft.name, input: s.draft.inputSchema as Record<string, unknown> | undefined }));
}

export type Answers = { name?: unknown; format?: unknown; mode?: unknown; description?: unknown; category?: unknown; calls?: unknown };
export type Question = (text: string, fallback?: string) => Promise<string | undefined>;
/** What is wrong with a `calls` answer (a name no skill has), or undefined when it will do. */
export type CallsCheck = (calls: string, category: string | undefined) => Promise<string | undefined>;

/** The check behind `--calls`, run on an answer at the terminal, where the registry the skill joins is known. */
async function callsProblem(dir: string | undefined, category: string | undefined, calls: string): Promise<string | undefined> {
  const { root, skillsDir } = await placeOf(dir, category);
  try {
    resolveCallees((await existingSkills(root, skillsDir)).accepted, skillsDir, calls);
    return undefined;
  } catch (error) {
    if (error instanceof CliError) return `${error.message} (${error.hint ?? ''})`;
    throw error;
  }
}

/**
 * Asks at the terminal for whatever the flags left out. Ctrl+C or Ctrl+D at a question makes
 * readline reject it with an AbortError: that is the person leaving, not a bug, so it ends the
 * command before anything is written (130 for Ctrl+C, as a shell reports SIGINT).
 */
async function ask(args: Answers, checkCalls: CallsCheck): Promise<Answers> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await askMissing(args, async (text, fallback) => {
      const answer = (await rl.question(`${text}${fallback ? ` ${style.dim(`(${fallback})`)}` : ''}: `)).trim();
      return answer || fallback;
    }, checkCalls);
  } catch (error) {
    if (!(error instanceof Error && error.name === 'AbortError')) throw error;
    const interrupted = error.message.includes('Ctrl+C');
    err('');
    throw new CliError('E_CANCELLED', 'cancelled: no skill was created', {
      hint: 'run skilldex new again, or pass every answer as a flag: skilldex new my-skill --format skill-md --description "…"',
      exitCode: interrupted ? EXIT.interrupted : EXIT.failure,
    });
  } finally {
    rl.close();
  }
}

/** A typo in a choice is asked about again this many times; then the answer goes to the usual usage error. */
const CHOICE_RETRIES = 3;

/**
 * One of a closed list of choices. A mistyped one is asked about again at once, naming the choices:
 * refusing it only after the remaining questions would throw those answers away.
 */
async function choose(question: Question, label: string, choices: readonly string[], fallback: string): Promise<string | undefined> {
  const listed = choices.join(' | ');
  let answer = await question(`${label}: ${listed}`, fallback);
  for (let retry = 0; retry < CHOICE_RETRIES && answer !== undefined && !choices.includes(answer); retry++) {
    const guess = closest(answer, choices);
    answer = await question(`'${printable(answer)}' is not one of them${guess ? ` (did you mean '${guess}'?)` : ''}. ${label}: ${listed}`, fallback);
  }
  return answer;
}

/** The interview itself, separate from the terminal so it can be tested: only missing answers are asked for. */
export async function askMissing(args: Answers, question: Question, checkCalls?: CallsCheck): Promise<Answers> {
  const answers: Answers = { ...args };
  answers.name ??= await question('Skill name (kebab-case, e.g. text-stats)');
  answers.format ??= await choose(question, 'Format', SCAFFOLD_FORMATS, 'skill-md');
  if (answers.format === 'skill-json') answers.mode ??= await choose(question, 'Mode', FUNCTION_MODES, 'code');
  answers.description ??= await question('Description: what it does and when to use it');
  answers.category ??= (await question('Category folder (Enter for none)')) || undefined;
  if (answers.format === 'skill-json' && answers.mode === 'composite' && answers.calls === undefined) {
    const text = 'Skills to call, comma-separated (Enter for an example)';
    let calls = (await question(text)) || undefined;
    // A name no skill has is asked about again, as a mistyped format is, rather than refused after the interview.
    for (let retry = 0; retry < CHOICE_RETRIES && calls !== undefined && checkCalls; retry++) {
      const problem = await checkCalls(calls, answers.category === undefined ? undefined : String(answers.category));
      if (problem === undefined) break;
      calls = (await question(`${printable(problem)}. ${text}`)) || undefined;
    }
    answers.calls = calls;
  }
  return answers;
}

/**
 * Where the new skill goes: `--dir`, else the skills folder of the registry this command runs in
 * (skilldex.config.json's `skillsDir`), else the skills folder it runs in or under. Run inside a
 * registry's `skills/` (or one of its category folders), the default `skills` would make
 * `skills/skills/<name>`, a skill in a category named "skills"; there, the folder itself (and the
 * category it is) is meant. `root` is the registry the skills folder belongs to, whose config
 * checks the existing skills; `plainSkillsDir` is the folder a plain `skilldex validate` here checks.
 */
async function placeOf(dir: string | undefined, category: string | undefined): Promise<{ root: string; skillsDir: string; category: string | undefined; plainSkillsDir: string }> {
  const cwd = process.cwd();
  const plainSkillsDir = resolve((await loadConfig(cwd)).skillsDir);
  const at = (skillsDir: string, root = dirname(skillsDir), inCategory = category) => ({ root, skillsDir, category: inCategory, plainSkillsDir });
  if (dir !== undefined) return at(resolve(dir));
  if ((await exists(join(cwd, CONFIG_FILE))) || (await exists(plainSkillsDir))) return at(plainSkillsDir, cwd);
  if (basename(cwd) === 'skills') return at(cwd);
  if (basename(dirname(cwd)) === 'skills') return at(dirname(cwd), undefined, category ?? basename(cwd));
  return at(plainSkillsDir, cwd);
}
