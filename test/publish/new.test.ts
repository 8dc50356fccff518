import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry, validateRegistry } from '../../src/pipeline/index.ts';
import { askMissing } from '../../src/cli/commands/new.ts';
import { scaffold, scaffoldNames } from '../../src/publish/scaffold.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { runExampleOf } from '../../src/site/catalog/run-example.ts';

const ENV = { ...process.env, NO_COLOR: '1', CI: 'true' };

const skilldex = (cwd: string, ...args: string[]) => runSkilldex(cwd, args, ENV);

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-new-'));
  // Independent formats in parallel; the composite needs the function skills to exist first.
  const first = await Promise.all([
    skilldex(root, 'new', 'plain-notes', '--format', 'skill-md', '--description', 'Keeps plain notes: use it for note-taking tests.'),
    skilldex(root, 'new', 'text-package', '--format', 'package', '--category', 'text'),
    skilldex(root, 'new', 'proto-tool', '--format', 'script', '--category', 'dev'),
    skilldex(root, 'new', 'count-words', '--format', 'skill-json', '--mode', 'code', '--category', 'text'),
    skilldex(root, 'new', 'sum_up', '--format', 'skill-json', '--mode', 'llm'),
  ]);
  for (const r of first) expect(r.stderr).toBe('');
  const composite = await skilldex(root, 'new', 'count-then-sum', '--format', 'skill-json', '--mode', 'composite', '--category', 'workflow');
  expect(composite.status).toBe(0);
  expect(composite.stderr).toContain('count_words, sum_up');
  const chosen = await skilldex(root, 'new', 'only-count', '--format', 'skill-json', '--mode', 'composite', '--calls', 'count_words');
  expect(chosen.status).toBe(0);
}, 120_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('skilldex new', () => {
  it('scaffolds every format into the expected folders', async () => {
    const validation = await validateRegistry(root, { scan: false });
    expect(validation.rejected).toEqual([]);
    expect(validation.accepted.map((s) => `${s.source.dir} ${s.draft.name} ${s.draft.format}/${s.draft.mode}`)).toEqual([
      'skills/workflow/count-then-sum count_then_sum skill-json/composite',
      'skills/text/count-words count_words skill-json/code',
      'skills/only-count only_count skill-json/composite',
      'skills/plain-notes plain-notes skill-md/instructions',
      'skills/dev/proto-tool proto-tool package/code',
      'skills/sum-up sum_up skill-json/llm',
      'skills/text/text-package text-package package/code',
    ]);
  });

  it('produces skills with no diagnostics but the unedited description, even with the security scanner on', async () => {
    // A scaffold given no --description carries a placeholder the validator warns about until it is replaced.
    const placeholders = (diagnostics: { rule: string; file: string }[]) => diagnostics.filter((d) => d.rule === 'description/placeholder').map((d) => d.file.split('/').at(-2));
    const unscanned = (await validateRegistry(root, { scan: false })).diagnostics;
    expect(unscanned.filter((d) => d.rule !== 'description/placeholder')).toEqual([]);
    expect(placeholders(unscanned).sort()).toEqual(['count-then-sum', 'count-words', 'only-count', 'proto-tool', 'sum-up', 'text-package']);
    const scanned = await validateRegistry(root);
    expect(scanned.diagnostics).toEqual(unscanned);
    expect(scanned.accepted.map((s) => s.scan.verdict)).toEqual(Array(7).fill('pass'));
  });

  it('produces skills that build', async () => {
    const out = await mkdtemp(join(tmpdir(), 'skilldex-new-out-'));
    try {
      const result = await buildRegistry({ root, outDir: out, scan: false, sourceDateEpoch: 1_700_000_000 });
      expect(result.ok).toBe(true);
      expect(result.index?.totalSkills).toBe(7);
      const composite = result.manifests.find((m) => m.name === 'count_then_sum');
      expect(composite?.calls).toEqual(['count_words', 'sum_up']);
      expect(result.manifests.find((m) => m.name === 'count_words')?.calledBy).toEqual(['count_then_sum', 'only_count']);
      const proto = result.manifests.find((m) => m.name === 'proto-tool');
      expect(proto?.actions?.map((a) => a.name)).toEqual(['analyze', 'report']);
      // The run command its catalog page shows gives the script what it needs, not a bare action.
      const pageInput = runExampleOf(proto!.inputSchema!, proto!.instructions).input;
      expect(pageInput).toEqual({ action: 'analyze', params: { text: 'hello world' } });
      const ran = spawnSync('python3', [join(root, 'skills/dev/proto-tool/scripts/main.py')], { input: JSON.stringify(pageInput), encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      expect(JSON.parse(ran.stdout)).toMatchObject({ success: true, data: { words: 2 } });
      expect(result.manifests.find((m) => m.name === 'text-package')?.entry).toEqual({ path: 'scripts/execute.ts', runner: 'module', language: 'typescript' });
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('wires the composite pipeline from the callees’ input schemas', async () => {
    const json = JSON.parse(await readFile(join(root, 'skills/workflow/count-then-sum/skill.json'), 'utf8'));
    expect(json.input).toEqual({ type: 'object', properties: { text: { type: 'string', description: 'The text to work on.' } }, required: ['text'] });
    expect(json.pipeline).toEqual([
      { step: 'count_words', skill: 'count_words', input: { text: '{{input.text}}' } },
      { step: 'sum_up', skill: 'sum_up', input: { text: '{{input.text}}' } },
    ]);
    expect(json.outputMapping).toEqual({ count_words: '{{steps.count_words}}', sum_up: '{{steps.sum_up}}' });
  });

  it('writes code that runs: execute.ts, index.ts and the protocol script', async () => {
    const pkg = await import(pathToFileURL(join(root, 'skills/text/text-package/scripts/execute.ts')).href);
    expect(await pkg.execute({ text: 'hello wide world' }, {}, {})).toEqual({ output: { characters: 16, words: 3, preview: 'hello wide world' }, format: 'object', status: 'success' });
    expect((await pkg.execute({}, {}, {})).status).toBe('error');
    const fn = await import(pathToFileURL(join(root, 'skills/text/count-words/index.ts')).href);
    expect(await fn.execute({ text: '数 words here' }, {})).toEqual({ characters: 12, words: 3 });

    const script = join(root, 'skills/dev/proto-tool/scripts/main.py');
    const call = (input: string) => {
      const r = spawnSync('python3', [script], { input, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      return { status: r.status, envelope: JSON.parse(r.stdout), stderr: r.stderr };
    };
    const analyzed = call('{"action": "analyze", "params": {"text": "one two\\nthree"}}');
    expect(analyzed.status).toBe(0);
    expect(analyzed.envelope).toMatchObject({ success: true, action: 'analyze', data: { characters: 13, words: 3, lines: 2 } });
    expect(analyzed.envelope.metadata.execution_time_ms).toBeGreaterThanOrEqual(0);
    expect(call('{"action": "report", "params": {"text": "a b", "title": "T"}}').envelope.data.content).toBe('# T\n\n- characters: 3\n- words: 2\n- lines: 1\n');
    expect(call('{"action": "nope"}').envelope).toEqual({ success: false, action: 'nope', error: { code: 'UNKNOWN_ACTION', message: 'Unknown action: nope', details: { supported_actions: ['analyze', 'report'] } } });
    expect(call('{"action": "analyze", "params": {}}').envelope.error.code).toBe('MISSING_PARAM');
    expect(call('{"action": "analyze", "params": {"text": 3}}').envelope.error.code).toBe('INVALID_PARAM');
    const broken = call('{not json');
    expect(broken.status).toBe(1);
    expect(broken.envelope.error.code).toBe('INVALID_JSON');
    const debug = spawnSync('python3', [script], { input: '{"action": "analyze", "params": {"text": "x"}}', encoding: 'utf8', env: { PATH: process.env.PATH ?? '', SKILL_DEBUG: '1' } });
    expect(debug.stderr).toContain('request: {"action": "analyze"');
    expect(JSON.parse(debug.stdout).success).toBe(true);
  });

  it('refuses bad names, existing folders and unknown callees with a hint', async () => {
    const [bad, again, unknown, noName] = await Promise.all([
      skilldex(root, 'new', 'Bad_Name', '--format', 'skill-md'),
      skilldex(root, 'new', 'plain-notes'),
      skilldex(root, 'new', 'x-flow', '--format', 'skill-json', '--mode', 'composite', '--calls', 'count_words,missing_one'),
      skilldex(root, 'new', '--format', 'package'),
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("error 'Bad_Name' is not a valid Agent Skills name");
    expect(bad.stderr).toContain('hint: use lowercase letters, digits and single hyphens (e.g. bad-name)');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('not in skills: missing_one');
    expect(unknown.stderr).toMatch(/hint: the \d+ skills: .*count_words/);
    expect(noName.status).toBe(2);
    expect(noName.stderr).toContain('missing the skill name');
  });

  it('refuses a description the skill could not validate with (control characters, over 1,024 characters), and writes nothing', async () => {
    const [control, long] = await Promise.all([
      skilldex(root, 'new', 'ctl-desc', '--description', 'Counts words.\u001b]0;title\u0007 Use it for counts.'),
      skilldex(root, 'new', 'long-desc', '--description', 'a'.repeat(1025)),
    ]);
    expect(control.status).toBe(2);
    expect(control.stderr).toContain('error the description contains the control character U+001B');
    expect(long.status).toBe(2);
    expect(long.stderr).toContain('error the description is 1025 characters; at most 1024 are allowed');
    expect(existsSync(join(root, 'skills', 'ctl-desc'))).toBe(false);
    expect(existsSync(join(root, 'skills', 'long-desc'))).toBe(false);
  });

  it('names the callee --calls probably meant, and how many skills the list leaves out', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skilldex-new-calls-'));
    for (let i = 0; i < 14; i++) await skilldex(root, 'new', `tool-${String(i).padStart(2, '0')}`, '--format', 'skill-json', '--mode', 'code');
    const typo = await skilldex(root, 'new', 'flow', '--format', 'skill-json', '--mode', 'composite', '--calls', 'tool_1o');
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain("hint: did you mean 'tool_10'? the 14 skills: tool_00, tool_01,");
    expect(typo.stderr).toContain('tool_11, … and 2 more');
    await rm(root, { recursive: true, force: true });
  });

  it('says how to fix --mode given without --format skill-json', async () => {
    const [noFormat, otherFormat] = await Promise.all([skilldex(root, 'new', 'a-mode', '--mode', 'llm'), skilldex(root, 'new', 'b-mode', '--format', 'script', '--mode', 'llm')]);
    expect(noFormat.status).toBe(2);
    expect(noFormat.stderr).toContain('hint: add --format skill-json: skilldex new a-mode --format skill-json --mode llm');
    expect(otherFormat.status).toBe(2);
    expect(otherFormat.stderr).toContain('hint: drop --mode for --format script, or use --format skill-json');
  });

  it('refuses --calls for anything but a composite', async () => {
    const result = await skilldex(root, 'new', 'c-calls', '--calls', 'count_words');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('error --calls applies to --format skill-json --mode composite only');
  });

  it('run inside skills/ or one of its category folders, puts the skill there, not in skills/skills/', async () => {
    const registry = await mkdtemp(join(tmpdir(), 'skilldex-new-inside-'));
    try {
      await mkdir(join(registry, 'skills', 'text'), { recursive: true });
      expect((await skilldex(join(registry, 'skills'), 'new', 'from-skills')).status).toBe(0);
      const inCategory = await skilldex(join(registry, 'skills', 'text'), 'new', 'from-category');
      expect(inCategory.status).toBe(0);
      const validation = await validateRegistry(registry, { scan: false });
      expect(validation.accepted.map((s) => `${s.source.dir} ${s.draft.category}`).sort()).toEqual(['skills/from-skills undefined', 'skills/text/from-category text']);
    } finally {
      await rm(registry, { recursive: true, force: true });
    }
  });

  it("points to the build this project has: its own npm run build in a registry checkout, else the CLI's", async () => {
    const bare = await skilldex(root, 'new', 'next-step-bare');
    expect(bare.status).toBe(0);
    expect(bare.stdout).toContain('3. npx skilldex build, then open a pull request\n');
    const checkout = await mkdtemp(join(tmpdir(), 'skilldex-new-checkout-'));
    try {
      await writeFile(join(checkout, 'package.json'), JSON.stringify({ name: 'my-registry', private: true, scripts: { build: 'skilldex-site' } }));
      await writeFile(join(checkout, 'CONTRIBUTING.md'), '# Contributing\n');
      const inCheckout = await skilldex(checkout, 'new', 'next-step-checkout');
      expect(inCheckout.status).toBe(0);
      expect(inCheckout.stdout).toContain('3. npm run build, then open a pull request (see CONTRIBUTING.md)\n');
    } finally {
      await rm(checkout, { recursive: true, force: true });
    }
  });

  it('names skill.json skills in snake_case and keeps their folder kebab-case', () => {
    expect(scaffoldNames('memory-search', 'skill-json')).toEqual({ name: 'memory_search', folderName: 'memory-search' });
    expect(scaffoldNames('memory_search', 'skill-json')).toEqual({ name: 'memory_search', folderName: 'memory-search' });
    expect(() => scaffoldNames('9lives', 'skill-json')).toThrow(/not a valid skill.json name/);
    expect(() => scaffoldNames('a--b', 'package')).toThrow(/not a valid Agent Skills name/);
    // What the validator refuses (name/windows-device) is refused here, with a name to try.
    expect(() => scaffoldNames('con', 'skill-md')).toThrow("'con' would be installed as folder 'con', a device name on Windows");
    expect(() => scaffoldNames('nul_', 'skill-json')).toThrow("'nul_' would be installed as folder 'nul'");
    expect(() => scaffold({ name: 'fine', format: 'skill-md', category: 'AUX' })).toThrow("'AUX' cannot be a category folder: it is a device name on Windows");
    expect(scaffoldNames('console', 'skill-md')).toEqual({ name: 'console', folderName: 'console' });
    // Descriptions that are not plain YAML scalars are quoted by the yaml package.
    const md = scaffold({ name: 'quoted', format: 'skill-md', description: 'Use: when "quotes" and # hashes appear' }).files[0]?.content ?? '';
    expect(md.split('\n').slice(0, 4)).toEqual(['---', 'name: quoted', 'description: \'Use: when "quotes" and # hashes appear\'', '---']);
  });

  it('asks at a terminal only for what the flags left out, offering defaults', async () => {
    const asked: string[] = [];
    const replies: Record<string, string | undefined> = { 'Skill name': 'my-flow', Format: 'skill-json', Mode: 'composite', Description: 'Chains things.', Category: '', Skills: 'a,b' };
    const answers = await askMissing({ category: 'workflow' }, async (text, fallback) => {
      asked.push(`${text}${fallback ? ` [${fallback}]` : ''}`);
      const key = Object.keys(replies).find((k) => text.startsWith(k));
      return (key && replies[key]) || fallback;
    });
    expect(asked).toEqual([
      'Skill name (kebab-case, e.g. text-stats)',
      'Format: skill-md | package | skill-json | script [skill-md]',
      'Mode: code | llm | composite [code]',
      'Description: what it does and when to use it',
      'Skills to call, comma-separated (Enter for an example)',
    ]);
    expect(answers).toEqual({ name: 'my-flow', format: 'skill-json', mode: 'composite', description: 'Chains things.', category: 'workflow', calls: 'a,b' });
  });
});
