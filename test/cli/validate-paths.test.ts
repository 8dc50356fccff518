/**
 * The real CLI, spawned: `skilldex validate PATH…` checks what it is given — a skill folder
 * anywhere on disk, a folder of skills, a registry root, several at once — and never reports
 * "0 errors" for something it did not check: a missing path, a folder with nothing in it or a
 * root without skills/ is a usage error (exit 2) with a hint. `skilldex build` refuses a missing
 * root or skills folder the same way, and builds an empty registry from an empty skills folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryIndex } from '../../src/core/schemas/registry-index.ts';
import { REPO, runSkilldex, runSkilldexUnprivileged } from '../helpers/cli.ts';

const FIXTURES = join(REPO, 'test', 'fixtures', 'rules');
const temps: string[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await rm(t, { recursive: true, force: true });
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'skilldex-cli-'));
  temps.push(dir);
  return dir;
};

const skillMd = (name: string, description = `Does ${name} things when the user asks for them.`) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nSteps.\n`;

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

/** Usage errors: exit 2, an error line and a hint on stderr, nothing on stdout, no stack trace. */
function expectUsageError(result: { status: number; stdout: string; stderr: string }, message: string | RegExp) {
  expect(result.status, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(typeof message === 'string' ? new RegExp(`^error .*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm') : message);
  expect(result.stderr).toMatch(/^hint: \S/m);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('skilldex validate PATH (spawned)', () => {
  it('shows a duplicate name\'s other place in the same frame as the file, openable from the current folder', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'one/pdf-tools/SKILL.md': skillMd('pdf-tools'), 'two/pdf-tools/SKILL.md': skillMd('pdf-tools') });
    const result = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(result.status, result.stdout).toBe(1);
    const main = /^(\S+):2:7 {2}registry\/duplicate-name/m.exec(result.stdout)?.[1];
    const other = /^ {4}(\S+):2:7 {2}'pdf-tools' is declared here/m.exec(result.stdout)?.[1];
    expect([main, other].sort()).toEqual(['one/pdf-tools/SKILL.md', 'two/pdf-tools/SKILL.md']);
  });

  it.each(['My Skills', 'données', 'a+b', '@org'])('checks a folder of skills named %s, whatever characters its name holds', async (folder) => {
    const cwd = await tempDir();
    await writeTree(cwd, { [`${folder}/hello/SKILL.md`]: skillMd('hello'), [`${folder}/broken/SKILL.md`]: skillMd('broken', '') });
    const result = await runSkilldex(cwd, ['validate', '--no-scan', folder]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain(`${folder}/broken/SKILL.md:3:`);
    expect(result.stdout).not.toContain(`${folder}/hello/`);
  });

  it('checks one skill folder outside any registry, with paths relative to the current folder', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'drafts/pdf-tools/SKILL.md': skillMd('pdf-tool') });
    const bad = await runSkilldex(cwd, ['validate', '--no-scan', 'drafts/pdf-tools']);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain("drafts/pdf-tools/SKILL.md:2:7  name/folder-mismatch  error  Directory name 'pdf-tools' must match skill name 'pdf-tool'\n");
    expect(bad.stdout).toContain('1 error, 0 warnings\n');

    await writeTree(cwd, { 'drafts/pdf-tools/SKILL.md': skillMd('pdf-tools') });
    const good = await runSkilldex(cwd, ['validate', '--no-scan', 'drafts/pdf-tools']);
    expect(good).toMatchObject({ status: 0, stdout: '0 errors, 0 warnings\n' });
    // From inside the skill folder, with no argument: the folder itself, shown as SKILL.md.
    await writeTree(cwd, { 'drafts/pdf-tools/SKILL.md': skillMd('pdf-tool') });
    const inside = await runSkilldex(join(cwd, 'drafts', 'pdf-tools'), ['validate', '--no-scan']);
    expect(inside.status).toBe(1);
    expect(inside.stdout).toMatch(/^SKILL\.md:2:7 {2}name\/folder-mismatch {2}error/);
  });

  it('runs the registry-wide rules over just the one skill: a call to a skill it does not have is reported', async () => {
    const cwd = await tempDir();
    await cp(join(FIXTURES, 'registry-unknown-call', 'skills', 'caller'), join(cwd, 'caller'), { recursive: true });
    const result = await runSkilldex(cwd, ['validate', '--no-scan', '--format', 'json', 'caller']);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as { diagnostics: { file: string; rule: string; message: string }[]; rejected: { dir: string }[] };
    // In its registry only 'nobody' is unknown; alone, 'leaf' is missing too.
    expect(report.diagnostics.map((d) => `${d.file} ${d.rule} ${d.message}`)).toEqual([
      "caller/skill.json registry/unknown-call 'caller' calls 'nobody', which is not in the registry",
      "caller/skill.json registry/unknown-call 'caller' calls 'leaf', which is not in the registry",
    ]);
    expect(report.rejected.map((r) => r.dir)).toEqual(['caller']);
  });

  it('accepts the declaration file for its folder, and several paths at once, each reported', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'a/one/SKILL.md': skillMd('uno'), 'b/two/SKILL.md': skillMd('dos'), 'c/three/SKILL.md': skillMd('three') });
    const result = await runSkilldex(cwd, ['validate', '--no-scan', 'a/one/SKILL.md', 'b/two', 'c/three']);
    expect(result.status).toBe(1);
    expect(result.stdout.split('\n').filter((l) => /^\S+:\d+:\d+ /.test(l)).map((l) => l.split(' ')[0])).toEqual(['a/one/SKILL.md:2:7', 'b/two/SKILL.md:2:7']);
    expect(result.stdout).toContain('2 errors, 0 warnings\n');
  });

  it('takes a misnamed declaration (skill.md) for its folder, and reports it as misnamed, not as a file', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'skills/lower-case/skill.md': skillMd('lower-case') });
    const result = await runSkilldex(cwd, ['validate', '--no-scan', 'skills/lower-case/skill.md']);
    expect(result.status).toBe(1);
    expect(result.stderr).not.toContain('is not a folder');
    expect(result.stdout).toContain('skills/lower-case/skill.md:1:1  discovery/misnamed-declaration  error');
  });

  it('checks a folder of skills (with a category level) outside a registry, and registry rules across them', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, {
      'mine/alpha/SKILL.md': skillMd('alpha'),
      'mine/docs/beta/SKILL.md': skillMd('beta'),
      'mine/docs/Alpha/SKILL.md': skillMd('Alpha'),
    });
    const result = await runSkilldex(cwd, ['validate', '--no-scan', '--format', 'json', 'mine']);
    const report = JSON.parse(result.stdout) as { accepted: string[]; diagnostics: { file: string; rule: string }[] };
    expect(result.status).toBe(1);
    expect(report.accepted).toEqual(['alpha', 'beta']);
    expect(report.diagnostics.map((d) => `${d.file} ${d.rule}`)).toEqual(['mine/docs/Alpha/SKILL.md name/charset']);
  });

  it('checks a registry root given as a path, and narrows a registry to the folders named inside it', async () => {
    const cwd = await tempDir();
    await cp(join(FIXTURES, 'cli-mistakes'), join(cwd, 'reg'), { recursive: true });
    const whole = await runSkilldex(cwd, ['validate', '--no-scan', 'reg']);
    expect(whole.status).toBe(1);
    expect(whole.stdout).toContain('reg/skills/pdf-tools/SKILL.md:2:7  name/folder-mismatch');
    expect(whole.stdout).toContain('4 errors, 1 warning\n');

    // From the registry root, a folder of its skills is checked with the registry and reported alone.
    const one = await runSkilldex(join(cwd, 'reg'), ['validate', '--no-scan', '--format', 'json', 'skills/pdf-tools']);
    const report = JSON.parse(one.stdout) as { accepted: string[]; rejected: { dir: string }[]; diagnostics: { file: string }[] };
    expect(one.status).toBe(1);
    expect(report.diagnostics.map((d) => d.file)).toEqual(['skills/pdf-tools/SKILL.md']);
    expect(report.rejected.map((r) => r.dir)).toEqual(['skills/pdf-tools']);
    expect(report.accepted).toEqual([]);
    const good = await runSkilldex(join(cwd, 'reg'), ['validate', '--no-scan', 'skills/good']);
    expect(good).toMatchObject({ status: 0, stdout: '0 errors, 0 warnings\n' });
  });

  it('checks a path inside a registry\'s skills folder with that registry, from wherever it is named', async () => {
    const cwd = await tempDir();
    const reg = join(cwd, 'reg');
    await mkdir(reg);
    // A registry is a git repository: the walk up to it stays inside one.
    execFileSync('git', ['init', '-q', reg]);
    const make = (args: string[]) => runSkilldex(reg, ['new', ...args]);
    expect((await make(['word-tool', '--format', 'skill-json', '--description', 'Counts words. Use it when testing.'])).status).toBe(0);
    expect((await make(['flow', '--format', 'skill-json', '--mode', 'composite', '--calls', 'word_tool', '--description', 'Chains. Use it when testing.'])).status).toBe(0);
    const clean = { status: 0, stdout: '0 errors, 0 warnings\n' };
    expect(await runSkilldex(reg, ['validate', '--no-scan', 'skills/flow'])).toMatchObject(clean);
    // Alone, 'flow' would call a 'word_tool' it does not know.
    expect(await runSkilldex(join(reg, 'skills'), ['validate', '--no-scan', 'flow'])).toMatchObject(clean);
    expect(await runSkilldex(join(reg, 'skills', 'flow'), ['validate', '--no-scan'])).toMatchObject(clean);
    expect(await runSkilldex(cwd, ['validate', '--no-scan', 'reg/skills/flow'])).toMatchObject(clean);

    // Paths are shown as today, relative to the current folder.
    await rm(join(reg, 'skills', 'word-tool'), { recursive: true });
    const inside = await runSkilldex(join(reg, 'skills'), ['validate', '--no-scan', '--format', 'json', 'flow']);
    expect(inside.status).toBe(1);
    const report = JSON.parse(inside.stdout) as { diagnostics: { file: string; rule: string; message: string }[]; rejected: { dir: string }[] };
    expect(report.diagnostics.map((d) => `${d.file} ${d.rule} ${d.message}`)).toEqual(["flow/skill.json registry/unknown-call 'flow' calls 'word_tool', which is not in the registry"]);
    expect(report.rejected.map((r) => r.dir)).toEqual(['flow']);
  });

  it('reports what a named skill breaks in other skills (a shared name, its callers), and none of their own problems', async () => {
    const cwd = await tempDir();
    const reg = join(cwd, 'reg');
    execFileSync('git', ['init', '-q', reg]);
    const skillJson = (name: string, calls: string[] = []) =>
      JSON.stringify({ name, description: `Runs ${name} on a text.`, category: 'text', input: { type: 'object', properties: { text: { type: 'string' } } }, output: { type: 'object' }, mode: 'llm', ...(calls.length > 0 ? { calls } : {}) }, null, 2);
    const prompt = 'Answer from the input only.\n';
    const skill = (name: string, calls?: string[]) => ({ [`skills/${name}/skill.json`]: skillJson(name, calls), [`skills/${name}/prompt.md`]: prompt });
    await writeTree(reg, {
      'skilldex.config.json': '{}\n',
      ...skill('leaf'),
      ...skill('caller', ['leaf']),
      ...skill('chain', ['caller']),
      // Problems of their own, there before and not caused by 'leaf': never in a report on 'leaf'.
      ...skill('bystander', ['nobody']),
      'skills/pdf/SKILL.md': skillMd('pdf'),
      'skills/tools/pdf/SKILL.md': skillMd('pdf'),
    });
    const report = async (path: string) => {
      const result = await runSkilldex(reg, ['validate', '--no-scan', '--format', 'json', path]);
      const parsed = JSON.parse(result.stdout) as { diagnostics: { file: string; line: number; rule: string; related?: { file: string; line: number }[] }[] };
      return { status: result.status, lines: parsed.diagnostics.map((d) => `${d.file}:${d.line} ${d.rule}${(d.related ?? []).map((r) => ` <- ${r.file}:${r.line}`).join('')}`) };
    };
    expect(await report('skills/leaf')).toEqual({ status: 0, lines: [] });

    // Renamed: its callers now call a name no skill has, and the report on it says so, pointing
    // back at the name it gave up.
    await writeTree(reg, { 'skills/leaf/skill.json': skillJson('leaf_v2') });
    expect(await report('skills/leaf')).toEqual({
      status: 1,
      lines: ['skills/caller/skill.json:18 registry/unknown-call <- skills/leaf/skill.json:2', 'skills/chain/skill.json:18 registry/unknown-call <- skills/caller/skill.json:2'],
    });

    // Broken: its own error, and the callers it takes down with it.
    await writeTree(reg, { 'skills/leaf/skill.json': skillJson('leaf').replace('"type": "object"', '"type": "objekt"') });
    const broken = await report('skills/leaf');
    expect(broken.status).toBe(1);
    expect(broken.lines.filter((l) => !l.startsWith('skills/leaf/'))).toEqual(['skills/caller/skill.json:18 registry/unknown-call <- skills/leaf/skill.json:2', 'skills/chain/skill.json:18 registry/unknown-call <- skills/caller/skill.json:2']);
    expect(broken.lines.some((l) => l.startsWith('skills/leaf/skill.json'))).toBe(true);
    // Broken so that no skill is left to call (no description): the callers still point at it, at
    // the error that keeps it out.
    await writeTree(reg, { 'skills/leaf/skill.json': skillJson('leaf').replace('Runs leaf on a text.', '') });
    expect((await report('skills/leaf')).lines.filter((l) => !l.startsWith('skills/leaf/'))).toEqual(['skills/caller/skill.json:18 registry/unknown-call <- skills/leaf/skill.json:3', 'skills/chain/skill.json:18 registry/unknown-call <- skills/caller/skill.json:2']);
    await writeTree(reg, { 'skills/leaf/skill.json': skillJson('leaf') });

    // A new skill that takes a name another skill has: that skill is the one reported (it comes
    // later by path), and a report on the new one shows it.
    await writeTree(reg, { 'skills/a-leaf/skill.json': skillJson('leaf'), 'skills/a-leaf/prompt.md': prompt });
    expect(await report('skills/a-leaf')).toEqual({ status: 1, lines: ['skills/leaf/skill.json:2 registry/duplicate-name <- skills/a-leaf/skill.json:2'] });
    expect((await report('skills/caller')).lines).toEqual([]);
    // The bystander's own problem is still its own to report.
    expect((await report('skills/bystander')).lines).toEqual(['skills/bystander/skill.json:18 registry/unknown-call']);
  });

  it('looks for the registry no higher than the top of the git repository the path is in', async () => {
    const cwd = await tempDir();
    execFileSync('git', ['init', '-q', cwd]);
    const make = (args: string[]) => runSkilldex(cwd, ['new', ...args]);
    expect((await make(['word-tool', '--format', 'skill-json', '--description', 'Counts words. Use it when testing.'])).status).toBe(0);
    expect((await make(['flow', '--format', 'skill-json', '--mode', 'composite', '--calls', 'word_tool', '--description', 'Chains. Use it when testing.'])).status).toBe(0);
    const project = join(cwd, 'skills', 'project');
    await mkdir(project);
    await rename(join(cwd, 'skills', 'flow'), join(project, 'flow'));
    // In a category folder of the registry, 'flow' is checked with it.
    expect(await runSkilldex(project, ['validate', '--no-scan', 'flow'])).toMatchObject({ status: 0, stdout: '0 errors, 0 warnings\n' });
    // Once that folder is a git repository of its own, the skills folder above it is not its registry.
    execFileSync('git', ['init', '-q', project]);
    const alone = await runSkilldex(project, ['validate', '--no-scan', 'flow']);
    expect(alone.status).toBe(1);
    expect(alone.stdout).toContain("flow/skill.json:27:5  registry/unknown-call  error  'flow' calls 'word_tool', which is not in the registry");
  });

  it('outside any git repository, takes no config from a folder above the skill (a shared /tmp)', async () => {
    const cwd = await tempDir();
    // Someone else's config above: every rule it can silence, and a skills folder covering the skill.
    await writeTree(cwd, { 'skilldex.config.json': '{ "skillsDir": ".", "rules": { "name/folder-mismatch": "off" } }', 'mine/SKILL.md': skillMd('other-name') });
    const result = await runSkilldex(join(cwd, 'mine'), ['validate', '--no-scan']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('name/folder-mismatch');
    // A broken config above a skill that is not in its skills folder does not stop the validation.
    execFileSync('git', ['init', '-q', cwd]);
    await writeTree(cwd, { 'skilldex.config.json': '{ broken', 'drafts/mine/SKILL.md': skillMd('mine') });
    const drafts = await runSkilldex(join(cwd, 'drafts'), ['validate', '--no-scan', 'mine']);
    expect(drafts).toMatchObject({ status: 0, stdout: '0 errors, 0 warnings\n' });
  });

  it.each([
    ['with category folders', 'text/text-stats'],
    ['holding skills directly', 'text-stats'],
  ])('reports a skills/ folder that is a link as build does, %s', async (_, skill) => {
    const cwd = await tempDir();
    await writeTree(cwd, { [`real-skills/${skill}/SKILL.md`]: skillMd('text-stats') });
    await symlink('real-skills', join(cwd, 'skills'));
    const build = await runSkilldex(cwd, ['build', '--out', 'dist']);
    expect(build.status, build.stderr).toBe(1);
    expect(`${build.stdout}${build.stderr}`).toMatch(/^skills:1:1 {2}files\/symlink {2}error {2}'skills' is a symbolic link/m);
    for (const args of [[], ['skills'], [`skills/${skill}`]]) {
      const result = await runSkilldex(cwd, ['validate', '--no-scan', ...args]);
      expect(result.status, `${args.join(' ')}: ${result.stderr}`).toBe(1);
      expect(result.stdout).toMatch(/^skills:1:1 {2}files\/symlink {2}error {2}'skills' is a symbolic link; the skills folder must be a real folder inside the repository\n {4}hint: /);
      expect(result.stdout).toContain('1 error, 0 warnings\n');
    }
    // From its parent, the same diagnostic, shown from there.
    const parent = await runSkilldex(join(cwd, '..'), ['validate', '--no-scan', cwd]);
    expect(parent.status).toBe(1);
    expect(parent.stdout).toContain(`skills:1:1  files/symlink  error  'skills' is a symbolic link`);
  });

  it('a path that does not exist, a plain file, or a folder with no skill is a usage error', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'notes.txt': 'hello\n', 'empty/readme.md': '# nothing\n', 'reg/skills/alpha/SKILL.md': skillMd('alpha'), 'reg/skills/empty-category/.keep': '' });
    expectUsageError(await runSkilldex(cwd, ['validate', 'no-such-folder']), 'no-such-folder does not exist');
    expectUsageError(await runSkilldex(cwd, ['validate', 'notes.txt']), 'notes.txt is not a folder');
    expectUsageError(await runSkilldex(cwd, ['validate', 'empty']), 'empty holds no skills, so there is nothing to validate');
    expectUsageError(await runSkilldex(join(cwd, 'empty'), ['validate']), '. holds no skills');
    // One bad path among good ones still stops: nothing is half-checked.
    expectUsageError(await runSkilldex(cwd, ['validate', 'reg/skills/alpha', 'no-such-folder']), 'no-such-folder does not exist');
    // Inside a registry, a folder that holds none of its skills.
    expectUsageError(await runSkilldex(join(cwd, 'reg'), ['validate', '--no-scan', 'skills/empty-category']), 'skills/empty-category holds no skills');
    expectUsageError(await runSkilldex(cwd, ['validate', '--no-scan', '--root', 'reg', 'reg/skills/empty-category']), 'reg/skills/empty-category holds no skills');
  });

  it('a symbolic link round a loop, or a path through a folder that may not be searched, is a usage error that says which', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'locked/reg/skills/alpha/SKILL.md': skillMd('alpha') });
    await symlink('loop', join(cwd, 'loop'));
    for (const command of [['validate', 'loop'], ['scan', 'loop'], ['build', '--root', 'loop'], ['convert', 'loop']]) {
      expectUsageError(await runSkilldex(cwd, command), 'loop is a symbolic link that leads round a loop, never to a folder');
    }
    await chmod(join(cwd, 'locked'), 0o600);
    try {
      const denied = await runSkilldexUnprivileged(cwd, ['validate', 'locked/reg']);
      expect(denied.status).toBe(2);
      expect(denied.stderr).toContain('locked/reg cannot be reached: a folder on the way may not be searched (permission denied)');
    } finally {
      await chmod(join(cwd, 'locked'), 0o755);
    }
  });

  it('--root without skills/, a missing --root, or an empty skills/ folder is a usage error with a hint', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'plain/readme.md': '# x\n', 'one/SKILL.md': skillMd('one'), 'empty/skills/.keep': '' });
    const none = await runSkilldex(cwd, ['validate', '--root', 'plain']);
    expectUsageError(none, 'plain has no skills/ folder, so there is nothing to validate');
    expect(none.stderr).toContain("'skilldex new <name>' creates one");
    expectUsageError(await runSkilldex(cwd, ['validate', '--root', 'nowhere']), 'nowhere does not exist');
    const skill = await runSkilldex(cwd, ['validate', '--root', 'one']);
    expectUsageError(skill, 'one has no skills/ folder');
    expect(skill.stderr).toContain('hint: one is a skill folder; check it with: skilldex validate one');
    // The command in the hint runs as shown when pasted.
    await writeTree(cwd, { 'my skills/two/SKILL.md': skillMd('two') });
    const spaced = await runSkilldex(cwd, ['validate', '--root', 'my skills']);
    expect(spaced.stderr).toContain("hint: my skills is a folder of skills; check it with: skilldex validate 'my skills'");
    expectUsageError(await runSkilldex(cwd, ['validate', '--root', 'empty']), 'empty/skills holds no skills, so there is nothing to validate');
    expectUsageError(await runSkilldex(join(cwd, 'empty'), ['validate']), 'skills holds no skills');
  });

  it('the pull-request flags check one registry: with a path outside it they are a usage error', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'reg/skills/alpha/SKILL.md': skillMd('alpha'), 'elsewhere/beta/SKILL.md': skillMd('beta') });
    expectUsageError(await runSkilldex(cwd, ['validate', '--no-scan', '--root', 'reg', '--against-index', 'index.json', 'elsewhere/beta']), '--against-index checks one registry');
  });
});

describe('skilldex build without skills (spawned)', () => {
  it('refuses a missing root or a root without skills/, and writes nothing', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'plain/readme.md': '# x\n', 'mine/alpha/SKILL.md': skillMd('alpha') });
    expectUsageError(await runSkilldex(cwd, ['build', '--root', 'nowhere', '--out', 'out']), 'nowhere does not exist');
    expectUsageError(await runSkilldex(cwd, ['build', '--root', 'plain', '--out', 'out']), 'plain has no skills/ folder, so there is nothing to build');
    const skills = await runSkilldex(cwd, ['build', '--root', 'mine', '--out', 'out']);
    expectUsageError(skills, 'mine has no skills/ folder');
    expect(skills.stderr).toContain('mine is a folder of skills: pass its parent as --root');
    expect(await readdir(cwd)).toEqual(['mine', 'plain']);
  });

  it('npm run build (scripts/build.ts) refuses a missing root or skills folder with exit 2, before creating anything', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'plain/readme.md': '# x\n' });
    for (const [root, message] of [['nowhere', 'does not exist'], ['plain', 'has no skills/ folder, so there is nothing to build']] as const) {
      const result = spawnSync(process.execPath, [join(REPO, 'scripts', 'build.ts'), '--root', join(cwd, root), '--out', join(cwd, 'site')], { encoding: 'utf8', timeout: 60_000 });
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toBe(`error E_NO_SKILLS: ${join(cwd, root)} ${message}. Hint: pass --root <the folder that holds skills/>; a registry keeps its skills in skills/<name>/, each with SKILL.md or skill.json\n`);
    }
    expect(await readdir(cwd)).toEqual(['plain']);
    expect(await readdir(join(cwd, 'plain'))).toEqual(['readme.md']);
  });

  it('builds an empty, valid index from an empty skills/ folder', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'skills/.keep': '' });
    const result = await runSkilldex(cwd, ['build', '--out', 'dist']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('published 0 skills to dist');
    const index = RegistryIndex.parse(JSON.parse(await readFile(join(cwd, 'dist', 'index.json'), 'utf8')));
    expect([index.totalSkills, index.skills]).toEqual([0, []]);
  });
});
