/**
 * The real CLI, spawned on real files: mistakes a first-time publisher makes (a Windows path, an
 * interrupted interview), each reported as `file:line:col rule message` with a hint that says how
 * to fix it, never as an internal error.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runSkilldex } from '../helpers/cli.ts';

const temps: string[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await rm(t, { recursive: true, force: true });
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'skilldex-publisher-'));
  temps.push(dir);
  return dir;
};
async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

describe('a Windows path in resources', () => {
  it('says the backslashes are the problem, not that the path leaves the skill', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, {
      'skills/win-entry/SKILL.md': '---\nname: win-entry\ndescription: Counts words in a text; use it when asked how long a text is.\nversion: 1.0.0\nresources:\n  entry: .\\scripts\\execute.ts\n  references:\n    - references\\guide.md\n---\n\n# Win entry\n\nRun the entry.\n',
      'skills/win-entry/scripts/execute.ts': 'export async function execute() {\n  return {};\n}\n',
      'skills/win-entry/references/guide.md': '# Guide\n',
    });
    const result = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain("skills/win-entry/SKILL.md:6:10  package/resource-escape  error  resources.entry '.\\scripts\\execute.ts' uses `\\` between folders; paths use `/` on every system");
    expect(result.stdout).toContain("hint: write './scripts/execute.ts'");
    expect(result.stdout).toContain("skills/win-entry/SKILL.md:8:7  package/resource-escape  error  resources.references 'references\\guide.md' uses `\\`");
    expect(result.stdout).toContain("hint: write 'references/guide.md'");
    expect(result.stdout).not.toContain('points outside the skill folder');
  });

  it('still calls a path that really leaves the skill an escape', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, {
      'skills/far-entry/SKILL.md': '---\nname: far-entry\ndescription: Counts words in a text; use it when asked how long a text is.\nversion: 1.0.0\nresources:\n  entry: ..\\other\\execute.ts\n---\n\n# Far entry\n\nRun the entry.\n',
      'skills/far-entry/scripts/execute.ts': 'export async function execute() {\n  return {};\n}\n',
    });
    const result = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain("skills/far-entry/SKILL.md:6:10  package/resource-escape  error  resources.entry '..\\other\\execute.ts' points outside the skill folder");
  });
});

/**
 * `skilldex new` on a real pseudo-terminal (util-linux `script`): once the first question is on
 * screen, `keys` are typed, as a person would.
 */
function interrupt(cwd: string, keys: string): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qfec', `'${process.execPath}' '${CLI}' new`, '/dev/null'], { cwd, env: { ...process.env, TERM: 'xterm', CI: '' } });
    let output = '';
    let typed = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!typed && output.includes('Skill name')) {
        typed = true;
        child.stdin.write(keys);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? -1, output });
    });
  });
}

describe('leaving the skilldex new interview', () => {
  for (const [key, keys, status] of [['Ctrl+C', '\x03', 130], ['Ctrl+D', '\x04', 1]] as const) {
    it(`with ${key} ends it quietly, creating nothing, and is not reported as a bug`, async () => {
      const cwd = await tempDir();
      await mkdir(join(cwd, 'skills'));
      const result = await interrupt(cwd, keys);
      expect(result.output).not.toContain('internal error');
      expect(result.output).not.toContain('AbortError');
      expect(result.output).toMatch(/cancelled: no skill was created/);
      expect(result.status, result.output).toBe(status);
      expect(await readdir(join(cwd, 'skills'))).toEqual([]);
    });
  }
});

/**
 * `skilldex new ARGS` on a real pseudo-terminal, answering each question as it appears (every
 * question starts by clearing its line); unanswered questions end the interview with Ctrl+D.
 */
function converse(cwd: string, args: readonly string[], answers: readonly string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const command = [process.execPath, CLI, 'new', ...args].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: { ...process.env, TERM: 'xterm', CI: '' } });
    let output = '';
    let answered = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const asked = output.split('\x1b[0J').length - 1;
      if (asked > answered && /: (\x1b\[\d+G)?$/.test(output)) {
        child.stdin.write(answered < answers.length ? `${answers[answered]}\r` : '\x04');
        answered += 1;
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? -1, output });
    });
  });
}

describe('a mistyped choice in the skilldex new interview', () => {
  it('asks again at once, naming the choices, instead of refusing after every other question', async () => {
    const cwd = await tempDir();
    await mkdir(join(cwd, 'skills'));
    const result = await converse(cwd, ['typo-skill'], ['skil-md', 'skill-md', 'Counts words in a text; use it when asked how long a text is.', '']);
    expect(result.output).toContain("'skil-md' is not one of them (did you mean 'skill-md'?)");
    expect(result.output).not.toContain('unknown format');
    expect(result.status, result.output).toBe(0);
    expect(await readFile(join(cwd, 'skills/typo-skill/SKILL.md'), 'utf8')).toContain('name: typo-skill');
  });

  it('asks again for the skills a composite calls when one of them does not exist', async () => {
    const cwd = await tempDir();
    const step = { name: 'count_words', description: 'Counts words; use it when asked how long a text is.', category: 'text', input: { type: 'object' }, output: { type: 'object' }, mode: 'llm' };
    await writeTree(cwd, { 'skills/count-words/skill.json': `${JSON.stringify(step, null, 2)}\n`, 'skills/count-words/prompt.md': 'Count the words of {{input.text}}.\n' });
    const result = await converse(cwd, ['word_flow', '--format', 'skill-json', '--mode', 'composite'], ['Counts words twice; use it when testing composites.', '', 'count_wrds', 'count_words']);
    expect(result.output).toContain("--calls names skills that are not in skills: count_wrds (did you mean 'count_words'?");
    expect(result.output).not.toMatch(/^error/m);
    expect(result.status, result.output).toBe(0);
    expect(JSON.parse(await readFile(join(cwd, 'skills/word-flow/skill.json'), 'utf8'))).toMatchObject({ name: 'word_flow', calls: ['count_words'] });
  });

  it('does the same for the mode of a skill.json', async () => {
    const cwd = await tempDir();
    await mkdir(join(cwd, 'skills'));
    const result = await converse(cwd, ['typo_fn', '--format', 'skill-json'], ['lmm', 'llm', 'Writes a haiku about a topic; use it when asked for a poem.', '']);
    expect(result.output).toContain("'lmm' is not one of them (did you mean 'llm'?)");
    expect(result.status, result.output).toBe(0);
    expect(JSON.parse(await readFile(join(cwd, 'skills/typo-fn/skill.json'), 'utf8'))).toMatchObject({ name: 'typo_fn', mode: 'llm' });
  });
});

describe('a file saved as Latin-1', () => {
  it('is described by skilldex scan in a sentence that reads', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'skills/cafe-notes/SKILL.md': '---\nname: cafe-notes\ndescription: Lists cafe orders; use it when asked what to order.\n---\n\n# Cafe notes\n\nRead references/menu.md.\n' });
    await mkdir(join(cwd, 'skills/cafe-notes/references'));
    await writeFile(join(cwd, 'skills/cafe-notes/references/menu.md'), Buffer.from('caf\xe9 au lait\n', 'latin1'));
    const result = await runSkilldex(cwd, ['scan', 'skills/cafe-notes', '--format', 'json']);
    expect(result.stderr).toBe('');
    const findings = (JSON.parse(result.stdout) as { skills: { findings: { rule: string; message: string; evidence?: string }[] }[] }).skills[0]!.findings;
    const undecodable = findings.find((f) => f.rule === 'file/undecodable');
    expect(undecodable?.message).toContain('The file is not valid UTF-8.');
    expect(undecodable?.evidence).toBe('references/menu.md: is not valid UTF-8');
    // validate says it once, as the files/encoding error, not again as a scanner finding.
    const validated = await runSkilldex(cwd, ['validate', '--format', 'json']);
    const about = (JSON.parse(validated.stdout) as { diagnostics: { rule: string; file: string }[] }).diagnostics.filter((d) => d.file === 'skills/cafe-notes/references/menu.md');
    expect(about.map((d) => d.rule)).toEqual(['files/encoding']);
  });
});

describe('a skill.json written as JavaScript', () => {
  const json = (body: string) => `{\n  "name": "notes_fn",\n  "description": "Summarises notes; use it when asked for a summary.",\n${body}  "category": "text",\n  "input": { "type": "object" },\n  "output": { "type": "object" },\n  "mode": "llm"\n}\n`;

  it('names a comment as the mistake, at the comment', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'skills/notes-fn/skill.json': json('  // the category decides the catalog section\n'), 'skills/notes-fn/prompt.md': 'Summarise {{input.text}}.\n' });
    const result = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain('skills/notes-fn/skill.json:4:3  skill-json/syntax  error  invalid JSON: comments are not allowed');
    expect(result.stdout).toContain('hint: remove the comment');
  });

  it('names a trailing comma as the mistake', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'skills/notes-fn/skill.json': json('').replace('"mode": "llm"\n', '"mode": "llm",\n'), 'skills/notes-fn/prompt.md': 'Summarise {{input.text}}.\n' });
    const result = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain('skills/notes-fn/skill.json:8:1  skill-json/syntax  error  invalid JSON: a comma before `}` is not allowed');
    expect(result.stdout).toContain('hint: remove the trailing comma just before this point');
  });
});

describe('a file whose name holds # or ?, in SARIF', () => {
  it('is located at that file, not at a shorter path with a fragment or a query', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, {
      'skills/csharp-tips/SKILL.md': '---\nname: csharp-tips\ndescription: Tips for C# code; use it when reviewing C# or F# projects.\n---\n\n# C# tips\n\nRead the references.\n',
      // files/path refuses both names: the diagnostic must still point at them.
      'skills/csharp-tips/references/c#-tips.md': 'Prefer records.\n',
      'skills/csharp-tips/references/why?.md': 'Because.\n',
    });
    const result = await runSkilldex(cwd, ['validate', '--no-scan', '--format', 'sarif']);
    expect(result.status, result.stderr).toBe(1);
    const run = (JSON.parse(result.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] }).runs[0]!;
    const uris = run.results.filter((r) => r.ruleId === 'files/path').map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri);
    expect(uris).toHaveLength(2);
    // How a SARIF consumer reads a relative artifact uri: resolved against the source root.
    const urls = uris.map((uri) => new URL(uri, 'file:///src/'));
    expect(urls.map((url) => url.hash + url.search)).toEqual(['', '']);
    expect(urls.map((url) => decodeURIComponent(url.pathname))).toEqual(['/src/skills/csharp-tips/references/c#-tips.md', '/src/skills/csharp-tips/references/why?.md']);
  });
});

describe('migrating a legacy SKILL.md saved with a byte-order mark', () => {
  it('reads its frontmatter as the validator does, instead of moving it into the body', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, {
      'skills/bom-old/SKILL.md': '\ufeff---\nname: bom-old\ndescription: Counts words in a text; use it when asked how long a text is.\nversion: 1.4.0\n---\n\n# Bom old\n\n```typescript\nexport async function execute() {\n  return { words: 2 };\n}\n```\n',
    });
    const result = await runSkilldex(cwd, ['migrate', '--skill-dir', 'skills', '--validate']);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).not.toContain('description was missing');
    expect(result.stdout).toContain('0 errors, 0 warnings');
    const migrated = await readFile(join(cwd, 'skills/bom-old/SKILL.md'), 'utf8');
    expect(migrated).not.toContain('\ufeff');
    expect(migrated).toContain('description: Counts words in a text; use it when asked how long a text is.\n');
    expect(migrated).toContain('version: 1.4.0\n');
    expect(migrated.split('---\n').length, migrated).toBe(3);
  });
});

describe('converting a skill saved with a byte-order mark', () => {
  it('converts a SKILL.md and a skill.json that validate accepts, leaving no BOM in what it writes', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, {
      'skills/bom-md/SKILL.md': '\ufeff---\nname: bom-md\ndescription: Counts words in a text; use it when asked how long a text is.\n---\n\n# Bom md\n\nCount the words.\n',
      'skills/bom-json/skill.json': `\ufeff${JSON.stringify({ name: 'bom_json', description: 'Writes a haiku about a topic; use it when asked for a poem.', category: 'text', input: { type: 'object' }, output: { type: 'object' }, mode: 'llm' })}\n`,
      'skills/bom-json/prompt.md': '\ufeffWrite a haiku about {{input.topic}}.\n',
    });
    const before = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(before.stdout).toBe('0 errors, 0 warnings\n');

    const md = await runSkilldex(cwd, ['convert', 'skills/bom-md', '--out', 'out/bom-md']);
    expect(md.stderr).toBe('');
    expect(md.status).toBe(0);
    expect(JSON.parse(await readFile(join(cwd, 'out/bom-md/skill.json'), 'utf8'))).toMatchObject({ name: 'bom_md', mode: 'llm' });
    expect(await readFile(join(cwd, 'out/bom-md/prompt.md'), 'utf8')).not.toContain('\ufeff');

    const json = await runSkilldex(cwd, ['convert', 'skills/bom-json', '--out', 'out/bom-json']);
    expect(json.stderr).toBe('');
    expect(json.status).toBe(0);
    const converted = await readFile(join(cwd, 'out/bom-json/SKILL.md'), 'utf8');
    expect(converted).not.toContain('\ufeff');
    expect(converted).toMatch(/^---\nname: bom-json\n/);
  });
});

describe('a frontmatter field written with the wrong case or a typo', () => {
  it('is pointed at the field it was meant to be', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, {
      'skills/cap-key/SKILL.md': '---\nname: cap-key\nDescription: Counts words in a text; use it when asked how long a text is.\nallowed_tools: Read\nvendor-notes: kept\n---\n\n# Cap key\n\nCount the words.\n',
    });
    const result = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain("skills/cap-key/SKILL.md:3:14  frontmatter/unknown-field  warning  unknown frontmatter field 'Description'\n    hint: did you mean `description`? field names are case-sensitive and spelled exactly");
    expect(result.stdout).toContain("skills/cap-key/SKILL.md:4:16  frontmatter/unknown-field  warning  unknown frontmatter field 'allowed_tools'\n    hint: did you mean `allowed-tools`?");
    // A custom field like no known one keeps the general advice.
    expect(result.stdout).toContain("unknown frontmatter field 'vendor-notes'\n    hint: move custom data under `metadata:`");
  });
});

describe('a skill.json field written with the wrong case or a typo', () => {
  it('is pointed at the field it was meant to be, at the top and in a pipeline step', async () => {
    const cwd = await tempDir();
    const skill = {
      name: 'typo_flow', Description: 'Runs a step; use it when testing typos.', category: 'text', input: { type: 'object' }, output: { type: 'object' }, mode: 'composite',
      calls: ['typo_flow_step'], pipeline: [{ step: 'one', skill: 'typo_flow_step', inputs: { text: '{{input.text}}' } }], verison: '1.0.1', vendor: 'acme',
    };
    const step = { name: 'typo_flow_step', description: 'A step; use it only inside typo_flow.', category: 'text', input: { type: 'object' }, output: { type: 'object' }, mode: 'llm' };
    await writeTree(cwd, {
      'skills/typo-flow/skill.json': `${JSON.stringify(skill, null, 2)}\n`,
      'skills/typo-flow-step/skill.json': `${JSON.stringify(step, null, 2)}\n`,
      'skills/typo-flow-step/prompt.md': 'Do {{input.text}}.\n',
    });
    const result = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain("unknown field 'Description' (the skill.json meta-schema has additionalProperties: false)\n    hint: did you mean \"description\"?");
    expect(result.stdout).toContain("unknown field 'verison' (the skill.json meta-schema has additionalProperties: false)\n    hint: did you mean \"version\"?");
    expect(result.stdout).toContain("unknown field 'inputs' (the skill.json meta-schema has additionalProperties: false)\n    hint: did you mean \"input\"?");
    expect(result.stdout).toContain("unknown field 'vendor' (the skill.json meta-schema has additionalProperties: false)\n    hint: remove it, or keep custom data in another file");
  });
});

describe('a link to a file on the author\'s own computer', () => {
  it('is reported, where a plain absolute path is left alone and a link out of the skill is the registry\'s to check', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, {
      'skills/local-links/SKILL.md': '---\nname: local-links\ndescription: Explains the house style; use it when writing docs.\n---\n\n# Local links\n\n- [style](C:\\Users\\me\\style.md)\n- [also](file:///C:/Users/me/style.md)\n- [hosts](/etc/hosts)\n- [sibling](../other/SKILL.md)\n',
    });
    const result = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("skills/local-links/SKILL.md:8:11  body/broken-link  warning  the link 'C:\\Users\\me\\style.md' points to a file on your own computer, which no one else has\n    hint: copy the file into the skill (references/ or assets/) and link to it relative to SKILL.md");
    expect(result.stdout).toContain("skills/local-links/SKILL.md:9:10  body/broken-link  warning  the link 'file:///C:/Users/me/style.md' points to a file on your own computer");
    // No skill 'other' beside it: registry/broken-link says so, body/broken-link does not.
    expect(result.stdout).toContain("skills/local-links/SKILL.md:11:13  registry/broken-link  warning  the link '../other/SKILL.md' points to skills/other/SKILL.md, but no skill of the registry is there");
    expect(result.stdout).not.toMatch(/:11:\d+ {2}body\/broken-link/);
    expect(result.stdout).toContain('0 errors, 3 warnings');
  });
});

describe('a skill.json version that is not a semantic version', () => {
  it('is refused at the version line, as a SKILL.md one is, instead of being published', async () => {
    const cwd = await tempDir();
    const skill = (version: string) => `${JSON.stringify({ name: 'fruit_fn', description: 'Names a fruit; use it when asked for one.', category: 'text', input: { type: 'object' }, output: { type: 'object' }, mode: 'llm', version }, null, 2)}\n`;
    await writeTree(cwd, { 'skills/fruit-fn/skill.json': skill('banana'), 'skills/fruit-fn/prompt.md': 'Name a fruit.\n' });
    const result = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(result.status, result.stdout).toBe(1);
    expect(result.stdout).toContain('skills/fruit-fn/skill.json:12:14  skill-json/meta-schema  error  version: must be a semantic version');
    const build = await runSkilldex(cwd, ['build', '--out', 'dist']);
    expect(build.status, build.stdout + build.stderr).toBe(1);

    await writeTree(cwd, { 'skills/fruit-fn/skill.json': skill('1.2.0-beta.1') });
    expect((await runSkilldex(cwd, ['validate', '--no-scan'])).stdout).toBe('0 errors, 0 warnings\n');
  });
});

describe('converting a skill another skill calls', () => {
  it('names the callers its new name leaves behind, before they are found broken', async () => {
    const cwd = await tempDir();
    const step = { name: 'count_words', description: 'Counts words; use it when asked how long a text is.', category: 'text', input: { type: 'object' }, output: { type: 'object' }, mode: 'llm' };
    const flow = {
      name: 'word_flow', description: 'Counts words twice; use it when testing composites.', category: 'text', input: { type: 'object', properties: { text: { type: 'string' } } }, output: { type: 'object' }, mode: 'composite',
      calls: ['count_words'], pipeline: [{ step: 'one', skill: 'count_words', input: { text: '{{input.text}}' } }],
    };
    await writeTree(cwd, {
      'skills/count-words/skill.json': `${JSON.stringify(step, null, 2)}\n`,
      'skills/count-words/prompt.md': 'Count the words of {{input.text}}.\n',
      'skills/word-flow/skill.json': `${JSON.stringify(flow, null, 2)}\n`,
    });
    expect((await runSkilldex(cwd, ['validate', '--no-scan'])).stdout).toBe('0 errors, 0 warnings\n');
    const dry = await runSkilldex(cwd, ['convert', 'skills/count-words', '--dry-run']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("note word_flow (skills/word-flow/skill.json) calls 'count_words': change its calls and pipeline to 'count-words'");

    const done = await runSkilldex(cwd, ['convert', 'skills/count-words']);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain("note word_flow (skills/word-flow/skill.json) calls 'count_words'");
    // The next step it suggests must show the broken caller, not only the converted skill.
    expect(done.stdout).toContain('next: npx skilldex validate\n');
    const after = await runSkilldex(cwd, ['validate', '--no-scan']);
    expect(after.stdout).toContain("registry/unknown-call  error  'word_flow' calls 'count_words', which is not in the registry");
  });
});
