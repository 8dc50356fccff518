import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRegistry, loadConfig, validateRegistry } from '../../src/pipeline/index.ts';
import { checkPullRequest, loadPublishedIndex } from '../../src/publish/pull-request.ts';
import { jobSummaryMarkdown } from '../../src/publish/summary.ts';
import { commitAll, createRepo, git, removePaths, skillMd, writeTree, type Tree } from './_git-repo.ts';

const REPO = join(import.meta.dirname, '..', '..');
const CLI = join(REPO, 'bin', 'skilldex.mjs');

const gammaJson = (version?: string, description = 'Counts the words of a text for the publish tests.') =>
  `${JSON.stringify({ name: 'gamma_fn', description, category: 'text', input: { type: 'object', properties: { text: { type: 'string' } } }, output: { type: 'object' }, mode: 'code', ...(version ? { version } : {}) }, null, 2)}\n`;

const BASE: Tree = {
  'package.json': '{ "name": "registry", "private": true }\n',
  'src/build/thing.ts': 'export const thing = 1;\n',
  'README.md': '# A registry\n',
  'skills/alpha/SKILL.md': skillMd('alpha', { version: '1.0.0' }),
  'skills/beta/SKILL.md': skillMd('beta', { version: '1.2.0', foo: 'bar' }),
  'skills/old-one/SKILL.md': skillMd('old-one', { version: '1.0.0' }),
  'skills/text/gamma-fn/skill.json': gammaJson(),
  'skills/text/gamma-fn/index.ts': 'export async function execute(input: { text?: string }) {\n  return { words: (input.text ?? "").split(/\\s+/).filter(Boolean).length };\n}\n',
  'skills/text/delta-flow/skill.json': `${JSON.stringify({
    name: 'delta_flow', description: 'Runs gamma_fn on the input text.', category: 'text',
    input: { type: 'object', properties: { text: { type: 'string' } } }, output: { type: 'object' }, mode: 'composite', calls: ['gamma_fn'],
    pipeline: [{ step: 'count', skill: 'gamma_fn', input: { text: '{{input.text}}' } }], outputMapping: { words: '{{steps.count.words}}' }, version: '1.0.0',
  }, null, 2)}\n`,
};

const repos: string[] = [];
afterEach(async () => {
  for (const r of repos.splice(0)) await rm(r, { recursive: true, force: true });
});

/** A repository with `main` = BASE and a checked-out branch `name` (nothing committed on it yet). */
async function branch(name: string): Promise<string> {
  const root = await createRepo(BASE);
  repos.push(root);
  git(root, 'switch', '-q', '-c', name);
  return root;
}

async function check(root: string, extra: { changedSince?: string; againstIndex?: { source: string; index: Awaited<ReturnType<typeof loadPublishedIndex>> } } = { changedSince: 'main' }) {
  const config = await loadConfig(root);
  const validation = await validateRegistry(root, { config, scan: false });
  return checkPullRequest({ root, config, diagnostics: validation.diagnostics, ...extra });
}

const brief = (c: { status: string; name?: string | undefined; before?: { version: string } | undefined; after?: { version: string } | undefined }) =>
  `${c.status} ${c.name} ${c.before?.version ?? '-'}→${c.after?.version ?? '-'}`;

describe('validate --changed-since: what a branch changed', () => {
  it('reports added (committed and untracked), changed and removed skills, and nothing else', async () => {
    const root = await branch('feature');
    await writeTree(root, {
      'skills/new-one/SKILL.md': skillMd('new-one'),
      'skills/alpha/SKILL.md': skillMd('alpha', { version: '1.1.0' }, '# alpha\n\nBetter steps.\n'),
    });
    await removePaths(root, 'skills/old-one');
    commitAll(root, 'feature work');
    await writeTree(root, { 'skills/draft/SKILL.md': skillMd('draft') }); // untracked, not committed

    const result = await check(root);
    expect(result.changes.map(brief)).toEqual(['changed alpha 1.0.0→1.1.0', 'added draft -→1.0.0', 'added new-one -→1.0.0', 'removed old-one 1.0.0→-']);
    // beta's pre-existing frontmatter/unknown-field warning is not this branch's business.
    expect(result.diagnostics).toEqual([]);
    expect(result.changedFiles).toEqual(['skills/alpha/SKILL.md', 'skills/draft/SKILL.md', 'skills/new-one/SKILL.md', 'skills/old-one/SKILL.md']);
  });

  it('keeps every diagnostic of a touched skill, including ones that predate the branch', async () => {
    const root = await branch('touch-beta');
    await writeTree(root, { 'skills/beta/SKILL.md': skillMd('beta', { version: '1.2.1', foo: 'bar' }, '# beta\n\nRevised.\n') });
    const result = await check(root);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line} ${d.rule}`)).toEqual(['skills/beta/SKILL.md:5 frontmatter/unknown-field']);
  });

  it('keeps registry-wide errors a change causes in untouched skills (removing a callee)', async () => {
    const root = await branch('remove-callee');
    await removePaths(root, 'skills/text/gamma-fn');
    commitAll(root, 'remove gamma');
    const result = await check(root);
    expect(result.changes.map(brief)).toEqual(['removed gamma_fn 1.0.0→-']);
    expect(result.diagnostics.map((d) => `${d.file} ${d.rule}`)).toEqual(['skills/text/delta-flow/skill.json registry/unknown-call']);
  });

  it('treats a folder move with identical files as a move, not a removal plus an addition', async () => {
    const root = await branch('move');
    git(root, 'mv', 'skills/alpha', 'skills/text/alpha');
    commitAll(root, 'categorise alpha');
    const result = await check(root);
    expect(result.changes.map((c) => `${c.status} ${c.before?.dir} → ${c.dir}`)).toEqual(['moved skills/alpha → skills/text/alpha']);
    expect(result.diagnostics).toEqual([]);
  });
});

describe('immutable versions', () => {
  it('refuses changed content without a version bump, at the version line', async () => {
    const root = await branch('no-bump');
    await writeTree(root, { 'skills/beta/SKILL.md': skillMd('beta', { version: '1.2.0', foo: 'bar' }, '# beta\n\nQuietly different.\n') });
    commitAll(root, 'edit beta');
    const result = await check(root);
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ rule: 'publish/version-not-bumped', file: 'skills/beta/SKILL.md', line: 4, column: 10, skill: 'beta' });
    expect(errors[0]?.message).toMatch(/^'beta' 1\.2\.0 is already published in main with different content \(sha256:[0-9a-f]{12}… → sha256:[0-9a-f]{12}…\); raise it$/);
    expect(errors[0]?.hint).toContain('version: 1.2.1');
  });

  it('refuses a lowered version, even with identical content', async () => {
    const root = await branch('lower');
    await writeTree(root, { 'skills/alpha/SKILL.md': skillMd('alpha', { version: '0.9.0' }, '# alpha\n\nNew.\n'), 'skills/text/gamma-fn/skill.json': gammaJson('0.1.0') });
    commitAll(root, 'lower');
    const result = await check(root);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.rule}`)).toEqual([
      'skills/alpha/SKILL.md:4:10 publish/version-lowered',
      'skills/text/gamma-fn/skill.json:17:14 publish/version-lowered',
    ]);
  });

  it('asks a skill.json without a version to declare one when its content changes', async () => {
    const root = await branch('implicit-version');
    await writeTree(root, { 'skills/text/gamma-fn/skill.json': gammaJson(undefined, 'Counts words, now with a better description.') });
    const result = await check(root);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ rule: 'publish/version-not-bumped', file: 'skills/text/gamma-fn/skill.json', line: 2 });
    expect(result.diagnostics[0]?.message).toContain('declare a version (the default is 1.0.0)');
    expect(result.diagnostics[0]?.hint).toContain('"version": "1.0.1"');
  });

  it('checks against a published index.json too, with or without git', async () => {
    const root = await branch('against-index');
    const out = await mkdtemp(join(tmpdir(), 'skilldex-pub-'));
    repos.push(out);
    const built = await buildRegistry({ root, outDir: out, scan: false, sourceDateEpoch: 1_700_000_000 });
    expect(built.ok).toBe(true);
    await writeTree(root, { 'skills/alpha/SKILL.md': skillMd('alpha', { version: '1.0.0' }, '# alpha\n\nChanged after publishing.\n') });
    const source = join(out, 'index.json');
    const index = await loadPublishedIndex(source);

    const indexOnly = await check(root, { againstIndex: { source, index } });
    expect(indexOnly.changes.map(brief)).toEqual(['changed alpha 1.0.0→1.0.0']);
    expect(indexOnly.diagnostics.filter((d) => d.rule.startsWith('publish/')).map((d) => `${d.file} ${d.rule}`)).toEqual(['skills/alpha/SKILL.md publish/version-not-bumped']);
    expect(indexOnly.diagnostics.find((d) => d.rule === 'publish/version-not-bumped')?.message).toContain(`published in ${source}`);

    // Both bases report the same problem once.
    const both = await check(root, { changedSince: 'main', againstIndex: { source, index } });
    expect(both.diagnostics.map((d) => d.rule)).toEqual(['publish/version-not-bumped']);
  });
});

describe('loadPublishedIndex', () => {
  const DIGEST = `sha256:${'0'.repeat(64)}`;
  it('reads a deployed index.json over HTTP and refuses anything else', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      if (req.url === '/index.json') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: '1.0.0', skills: [{ name: 'a', version: '1.0.0', digest: DIGEST }] }));
      else if (req.url === '/short-digest.json') res.writeHead(200).end(JSON.stringify({ skills: [{ name: 'a', version: '1.0.0', digest: 'sha256:00' }] }));
      else if (req.url === '/other.json') res.writeHead(200).end('{"skills": "no"}');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      expect((await loadPublishedIndex(`${base}/index.json`)).skills).toEqual([{ name: 'a', version: '1.0.0', digest: DIGEST }]);
      // The entry fields are the index schema's own: a digest that is not one is refused.
      await expect(loadPublishedIndex(`${base}/short-digest.json`)).rejects.toThrow(/is not a Skilldex index.json: must be sha256: followed by 64 lowercase hex digits/);
      await expect(loadPublishedIndex(`${base}/missing.json`)).rejects.toThrow(/answered 404/);
      await expect(loadPublishedIndex(`${base}/other.json`)).rejects.toThrow(/is not a Skilldex index.json/);
    } finally {
      server.close();
    }
  });
});

describe('mixed changes', () => {
  it('warns when build code or workflows change together with skills', async () => {
    const root = await branch('mixed');
    await writeTree(root, {
      'src/build/thing.ts': 'export const thing = 2;\n',
      '.github/workflows/validate.yml': 'on: pull_request\n',
      'skills/alpha/SKILL.md': skillMd('alpha', { version: '1.0.1' }, '# alpha\n\nTweaked.\n'),
    });
    commitAll(root, 'mixed');
    const result = await check(root);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ rule: 'publish/mixed-change', severity: 'warning', file: '.github/workflows/validate.yml', line: 1 }),
    ]);
    expect(result.diagnostics[0]?.message).toContain('.github/workflows/validate.yml, src/build/thing.ts');
  });

  it('does not warn for build-only or docs-and-skills changes, and honours severity overrides', async () => {
    const root = await branch('build-only');
    await writeTree(root, { 'src/build/thing.ts': 'export const thing = 3;\n', 'README.md': '# Docs\n' });
    expect((await check(root)).diagnostics).toEqual([]);
    await writeTree(root, { 'skills/alpha/SKILL.md': skillMd('alpha', { version: '2.0.0' }, '# alpha\n\nv2.\n'), 'skilldex.config.json': '{ "rules": { "publish/mixed-change": "error" } }\n' });
    expect((await check(root)).diagnostics.map((d) => `${d.rule} ${d.severity}`)).toEqual(['publish/mixed-change error']);
  });
});

describe('the PR check through the real CLI', () => {
  const run = (root: string, ...args: string[]) =>
    spawnSync(process.execPath, [CLI, 'validate', '--root', root, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', GITHUB_SERVER_URL: '', GITHUB_REPOSITORY: '' }, timeout: 60_000 });

  it('prints workflow-command annotations, exits 1 on errors and writes the job summary', async () => {
    const root = await branch('pr');
    await writeTree(root, {
      'skills/new-one/SKILL.md': skillMd('new-one'),
      'skills/beta/SKILL.md': skillMd('beta', { version: '1.2.0', foo: 'bar' }, '# beta\n\nSilently changed: 100% new, line one\nline two.\n'),
      'skills/alpha/SKILL.md': skillMd('alpha', { version: '1.1.0' }, '# alpha\n\nBetter.\n'),
      'src/build/thing.ts': 'export const thing = 9;\n',
    });
    await removePaths(root, 'skills/old-one');
    commitAll(root, 'pr');
    const summaryFile = join(root, 'summary.md');

    const result = run(root, '--changed-since', 'main', '--format', 'github', '--summary', summaryFile, '--no-scan');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    // ::error file=…,line=…,col=…,title=…::message — properties and data escaped per the runner's rules.
    for (const line of lines) expect(line).toMatch(/^::(error|warning) file=[^,:\n]+,line=\d+,col=\d+,title=[^,:\n]+::[^\r\n]*$/);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^::error file=skills\/beta\/SKILL\.md,line=4,col=10,title=publish\/version-not-bumped::'beta' 1\.2\.0 is already published in main/);
    expect(lines[1]).toMatch(/^::warning file=skills\/beta\/SKILL\.md,line=5,col=6,title=frontmatter\/unknown-field::unknown frontmatter field 'foo'/);
    expect(lines[2]).toMatch(/^::warning file=src\/build\/thing\.ts,line=1,col=1,title=publish\/mixed-change::/);

    const summary = (await readFile(summaryFile, 'utf8')).replace(/merge base `[0-9a-f]{12}`/, 'merge base `<commit>`');
    await expect(summary).toMatchFileSnapshot('__snapshots__/job-summary.md');
  });

  it('passes a clean branch, and reports human output with rule links by default', async () => {
    const root = await branch('clean');
    await writeTree(root, { 'skills/new-one/SKILL.md': skillMd('new-one') });
    const ok = run(root, '--changed-since', 'main', '--no-scan');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe('0 errors, 0 warnings\n');

    await writeTree(root, { 'skills/alpha/SKILL.md': skillMd('alpha', { version: '1.0.0' }, '# alpha\n\nx\n') });
    const bad = run(root, '--changed-since', 'main', '--no-scan');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('skills/alpha/SKILL.md:4:10  publish/version-not-bumped  error');
    expect(bad.stdout).toContain('(docs/rules.md#publish-version-not-bumped)');
  });

  it('narrows the report to the folders given as arguments', async () => {
    const root = await branch('paths');
    const alpha = run(root, '--no-scan', join(root, 'skills/alpha'));
    expect(alpha.stdout).toBe('0 errors, 0 warnings\n');
    const beta = run(root, '--no-scan', '--format', 'github', join(root, 'skills/beta'));
    expect(beta.status).toBe(0);
    expect(beta.stdout).toMatch(/^::warning file=skills\/beta\/SKILL\.md,line=5,col=6,title=frontmatter\/unknown-field::/);
  });

  it('reports a declaration broken in place as a change to that skill, not its removal plus an unnamed addition', async () => {
    const root = await branch('broken-in-place');
    // A stray comma: the skill.json no longer parses, so the head has no name for the folder.
    await writeTree(root, { 'skills/text/gamma-fn/skill.json': gammaJson('1.0.1').replace('"mode": "code"', '"mode": "code",,') });
    commitAll(root, 'break gamma');
    const summaryFile = join(root, 'summary.md');
    const result = run(root, '--changed-since', 'main', '--format', 'json', '--summary', summaryFile, '--no-scan');
    expect(result.status, result.stderr).toBe(1);
    const changes = (JSON.parse(result.stdout) as { changes: { status: string; name?: string; dir: string }[] }).changes;
    expect(changes.map((c) => `${c.status} ${c.name} ${c.dir}`)).toEqual(['changed gamma_fn skills/text/gamma-fn']);
    const rules = (JSON.parse(result.stdout) as { diagnostics: { rule: string; file: string }[] }).diagnostics.map((d) => `${d.rule} ${d.file}`);
    // The syntax error is the problem; a version verdict on a declaration that cannot be read would be a guess.
    expect(rules).toContain('skill-json/syntax skills/text/gamma-fn/skill.json');
    expect(rules.filter((r) => r.startsWith('publish/'))).toEqual([]);
    const summary = await readFile(summaryFile, 'utf8');
    expect(summary).not.toContain('removed');
    expect(summary).toContain('| `gamma_fn` | `skills/text/gamma-fn` | changed |');

    // Fixing it again pairs the other way: the base's unreadable declaration and the head's named one are one skill.
    git(root, 'switch', '-q', '-c', 'fix-in-place');
    await writeTree(root, { 'skills/text/gamma-fn/skill.json': gammaJson('1.0.2') });
    commitAll(root, 'fix gamma');
    const fixed = run(root, '--changed-since', 'broken-in-place', '--format', 'json', '--no-scan');
    expect(fixed.status, fixed.stderr).toBe(0);
    expect((JSON.parse(fixed.stdout) as { changes: { status: string; name?: string }[] }).changes.map((c) => `${c.status} ${c.name}`)).toEqual(['changed gamma_fn']);
  });

  it('keeps a skill\'s text from adding links or images to the job summary', async () => {
    const root = await branch('markdown-in-name');
    const name = '![pwn](https://evil.example/p.png) [Approve this PR](https://evil.example/login)';
    await writeTree(root, { 'skills/md-inj/SKILL.md': `---\nname: "${name}"\ndescription: Counts words; use it when asked how long a text is.\n---\n\n# Words\n\nCount them.\n` });
    commitAll(root, 'pr');
    const summaryFile = join(root, 'summary.md');
    const result = run(root, '--changed-since', 'main', '--format', 'github', '--summary', summaryFile, '--no-scan');
    expect(result.status, result.stderr).toBe(1);
    const summary = await readFile(summaryFile, 'utf8');
    // Inline links and images need `](`: a cell never holds one unescaped, so the text shows as written.
    const problems = summary.slice(summary.indexOf('### Problems'));
    expect(problems).toContain("skill name '![pwn]\\(https://evil.example/p.png) [Approve this PR]\\(https://evil.example/login)'");
    expect(problems).not.toMatch(/\]\((?!https:\/\/github)/);
  });

  it('keeps the job summary under GitHub\'s 1 MiB limit, saying how many problems it leaves out', async () => {
    const root = await branch('many-problems');
    // 5,000 broken links: a summary listing them all is about 1.7 MB, and GitHub shows none of a summary over 1 MiB.
    const tree: Tree = {};
    for (let s = 0; s < 10; s++) {
      const links = Array.from({ length: 500 }, (_, i) => `- [l${i}](references/some-fairly-long-missing-file-name-number-${i}.md)`).join('\n');
      tree[`skills/links-${s}/SKILL.md`] = skillMd(`links-${s}`, {}, `# Links\n\n${links}\n`);
    }
    await writeTree(root, tree);
    commitAll(root, 'pr');
    const summaryFile = join(root, 'summary.md');
    const result = run(root, '--changed-since', 'main', '--format', 'github', '--summary', summaryFile, '--no-scan');
    expect(result.status, result.stderr).toBe(0);
    const summary = await readFile(summaryFile, 'utf8');
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(1024 * 1024);
    // The headline still counts everything, and the table says what it leaves out and where to see it.
    const total = Number(/⚠️ \*\*0 errors\*\*, (\d+) warnings in 10 changed skills\./.exec(summary)?.[1]);
    expect(total).toBeGreaterThanOrEqual(5000);
    expect(summary).toContain('| `links-9` | `skills/links-9` | added |');
    const listed = summary.split('\n').filter((line) => line.startsWith('| warning |')).length;
    expect(listed).toBeGreaterThan(1000);
    expect(summary).toContain(`…and ${total - listed} more problems, left out to keep this summary under GitHub's 1 MiB limit: run \`npx skilldex validate --changed-since main\` to see them all.`);
  });

  it('explains an unknown base ref as a usage error', async () => {
    const root = await branch('bad-ref');
    const result = run(root, '--changed-since', 'origin/nope', '--no-scan');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown revision 'origin/nope'");
    expect(result.stderr).toContain('fetch-depth: 0');
  });

  it('explains a base that shares no commit with HEAD (a shallow clone), rather than printing git\'s failure', async () => {
    const root = await branch('shallow-pr');
    await writeTree(root, { 'skills/new-one/SKILL.md': skillMd('new-one') });
    commitAll(root, 'pr');
    // What a checkout with fetch-depth: 1 and a shallow fetch of the base branch leave behind.
    const clone = await mkdtemp(join(tmpdir(), 'skilldex-shallow-'));
    repos.push(clone);
    git(clone, 'clone', '-q', '--depth', '1', '--branch', 'shallow-pr', `file://${root}`, '.');
    git(clone, 'fetch', '-q', '--depth', '1', 'origin', 'main:refs/remotes/origin/main');
    const result = run(clone, '--changed-since', 'origin/main', '--no-scan');
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain("'origin/main' and HEAD share no commit in this clone");
    expect(result.stderr).toContain('shallow');
    expect(result.stderr).toContain('fetch-depth: 0');
    expect(result.stderr).not.toContain('Command failed');

    // Histories that are unrelated, in a full clone, are named as such.
    git(root, 'switch', '-q', '--orphan', 'unrelated');
    await writeTree(root, { 'README.md': '# Another project\n' });
    commitAll(root, 'unrelated');
    git(root, 'switch', '-q', 'shallow-pr');
    const unrelated = run(root, '--changed-since', 'unrelated', '--no-scan');
    expect(unrelated.status, unrelated.stderr).toBe(2);
    expect(unrelated.stderr).toContain("'unrelated' and HEAD share no commit: their histories are unrelated");
    expect(unrelated.stderr).not.toContain('Command failed');
  });

  it('says so when the registry is not in a git working tree at all, rather than blaming the ref', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skilldex-no-git-'));
    repos.push(root);
    await writeTree(root, { 'skills/alpha/SKILL.md': skillMd('alpha') });
    const result = run(root, '--changed-since', 'main', '--no-scan');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not inside a git working tree');
    expect(result.stderr).not.toContain('unknown revision');
    expect(result.stderr).toContain('hint: --changed-since needs a git working tree');
  });
});

describe('job summary', () => {
  it('escapes cell content and links rules when a docs URL is known', () => {
    const md = jobSummaryMarkdown({
      base: 'origin/main',
      changes: [],
      diagnostics: [{ rule: 'frontmatter/yaml', severity: 'error', file: 'skills/x/SKILL.md', line: 2, column: 3, message: 'a | b <script>\nc', hint: 'quote it' }],
      checked: 4,
      rulesDoc: 'https://github.com/o/r/blob/abc/docs/rules.md',
    });
    expect(md).toContain('| error | [`frontmatter/yaml`](https://github.com/o/r/blob/abc/docs/rules.md#frontmatter-yaml) | `skills/x/SKILL.md:2:3` | a \\| b &lt;script&gt; c — hint: quote it |');
    // A comparison counts the changed skills, not the ones checked around them.
    expect(md).toContain('❌ **1 error**, 0 warnings in 0 changed skills.\n');
  });

  it('counts the skills a full validation checked in its headline', () => {
    const warning = { rule: 'pipeline/not-composite', severity: 'warning' as const, file: 'skills/x/skill.json', line: 28, column: 15, message: 'ignored', hint: 'remove it' };
    const error = { ...warning, rule: 'name/charset', severity: 'error' as const };
    expect(jobSummaryMarkdown({ changes: [], diagnostics: [error, error, warning], checked: 12 })).toContain('\n❌ **2 errors**, 1 warning in 12 skills.\n');
    expect(jobSummaryMarkdown({ changes: [], diagnostics: [warning], checked: 1 })).toContain('\n⚠️ **0 errors**, 1 warning in 1 skill.\n');
    const clean = jobSummaryMarkdown({ changes: [], diagnostics: [], checked: 3 });
    expect(clean).toContain('\n✅ **0 errors**, 0 warnings in 3 skills.\n');
    expect(clean).not.toContain('changed');
  });
});
