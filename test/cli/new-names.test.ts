/**
 * `skilldex new` writes a skill that validates where the registry looks for it: under the
 * configured skills folder, with a name no existing skill has (as the registry's own rules
 * compare names), and with frontmatter every YAML reader takes as written.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { dateBack } from '../helpers/at-rest.ts';
import { runSkilldex } from '../helpers/cli.ts';

let root: string;
const fresh = async () => (root = await mkdtemp(join(tmpdir(), 'skilldex-new-names-')));
afterEach(() => rm(root, { recursive: true, force: true }));

const frontmatterOf = async (file: string) => (await readFile(file, 'utf8')).split('---\n')[1] as string;

describe('skilldex new refuses a name an existing skill has', () => {
  it('across formats: code-review beside the skill.json code_review (exit 1), which keeps validating', async () => {
    await fresh();
    const first = await runSkilldex(root, ['new', 'code-review', '--format', 'skill-json', '--mode', 'llm', '--category', 'code', '--description', 'Reviews code. Use it when testing.']);
    expect(first.status, first.stderr).toBe(0);
    const second = await runSkilldex(root, ['new', 'code-review', '--category', 'dev', '--description', 'Reviews code too. Use it when testing.']);
    expect(second.status).toBe(1);
    expect(second.stderr).toContain("error the name 'code-review' is taken by the skill in skills/code/code-review ('code_review')");
    expect(second.stderr).toContain('hint: choose another name');
    expect(await readdir(join(root, 'skills'))).toEqual(['code']);
    const validated = await runSkilldex(root, ['validate', '--no-scan']);
    expect(validated.status, validated.stdout).toBe(0);
  });

  it('in another category, and held by a skill the validator refuses for another reason', async () => {
    await fresh();
    expect((await runSkilldex(root, ['new', 'dup', '--category', 'a'])).status).toBe(0);
    const again = await runSkilldex(root, ['new', 'dup', '--category', 'b']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("error the name 'dup' is taken by the skill in skills/a/dup ('dup')");
    // Refused for its version, a skill still holds its name: a second text-stats would fail both.
    await mkdir(join(root, 'skills', 'text-stats'), { recursive: true });
    await writeFile(join(root, 'skills', 'text-stats', 'SKILL.md'), '---\nname: text-stats\ndescription: Counts words. Use it when testing.\nversion: banana\n---\n\nCount.\n');
    const taken = await runSkilldex(root, ['new', 'text-stats', '--category', 'c']);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain("error the name 'text-stats' is taken by the skill in skills/text-stats ('text-stats')");
    expect(await readdir(join(root, 'skills'))).toEqual(['a', 'text-stats']);
  });

  it('held by a skill whose frontmatter cannot be read: its folder name counts', async () => {
    await fresh();
    await mkdir(join(root, 'skills', 'a', 'broken'), { recursive: true });
    await writeFile(join(root, 'skills', 'a', 'broken', 'SKILL.md'), '---\nname: [broken\n---\n');
    const again = await runSkilldex(root, ['new', 'broken', '--category', 'z', '--description', 'Does x. Use it when testing.']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("error the name 'broken' is taken by the skill in skills/a/broken ('broken')");
  });
});

describe('skilldex new and skilldex.config.json', () => {
  it("creates the skill under the configured skillsDir, where validate looks", async () => {
    await fresh();
    await writeFile(join(root, 'skilldex.config.json'), '{"skillsDir":"src/skills"}');
    const result = await runSkilldex(root, ['new', 'my-skill', '--description', 'Does things. Use it when testing.']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('created my-skill (skill-md) in src/skills/my-skill/');
    expect(result.stdout).toContain('  2. npx skilldex validate\n');
    expect(await readdir(root)).not.toContain('skills');
    const validated = await runSkilldex(root, ['validate', '--no-scan']);
    expect(validated.status, validated.stdout + validated.stderr).toBe(0);
  });
});

describe('skilldex new quotes what YAML 1.1 reads as another type', () => {
  it.each(['yes', 'No', 'y', 'N', 'on', 'OFF', 'true', 'False', '1:20'])('description %s stays a string for a YAML 1.1 reader', async (description) => {
    await fresh();
    const result = await runSkilldex(root, ['new', 'quoted', '--description', description]);
    expect(result.status, result.stderr).toBe(0);
    const yaml = await frontmatterOf(join(root, 'skills', 'quoted', 'SKILL.md'));
    expect(yaml).toContain(`description: "${description}"`);
    expect(parse(yaml, { version: '1.1' }).description).toBe(description);
  });

  it('a name like y is quoted too, and plain text stays plain', async () => {
    await fresh();
    expect((await runSkilldex(root, ['new', 'y', '--description', 'Says yes. Use it when testing.'])).status).toBe(0);
    const yaml = await frontmatterOf(join(root, 'skills', 'y', 'SKILL.md'));
    expect(yaml).toBe('name: "y"\ndescription: Says yes. Use it when testing.\n');
  });
});

describe('skilldex new in a built registry', () => {
  // The names are read from what the last build recorded for every skill unchanged since (at
  // 10,000 skills, reading each one took seconds): they must be the names the skills have now.
  it('refuses names as the skills hold them now, offers the recorded functions to a composite, and leaves the cache alone', async () => {
    await fresh();
    expect((await runSkilldex(root, ['new', 'step-one', '--format', 'skill-json', '--category', 'a', '--description', 'Counts words. Use it when testing.'])).status).toBe(0);
    expect((await runSkilldex(root, ['new', 'dup', '--category', 'b', '--description', 'Does x. Use it when testing.'])).status).toBe(0);
    dateBack(join(root, 'skills'));
    const build = await runSkilldex(root, ['build', '--out', join(root, 'out')]);
    expect(build.status, build.stdout + build.stderr).toBe(0);
    const cacheFile = join(root, '.cache', 'skilldex', 'build-cache.json');
    const cached = await readFile(cacheFile);
    const stamp = (await stat(cacheFile)).mtimeMs;

    const taken = await runSkilldex(root, ['new', 'dup', '--category', 'c']);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain("error the name 'dup' is taken by the skill in skills/b/dup ('dup')");

    // Renamed after the build (and refused for it: the name no longer matches its folder): the
    // build's record of dup is stale, and the name it declares now is the one taken.
    const declaration = join(root, 'skills', 'b', 'dup', 'SKILL.md');
    await writeFile(declaration, (await readFile(declaration, 'utf8')).replace('name: dup', 'name: renamed'));
    const renamed = await runSkilldex(root, ['new', 'renamed', '--category', 'd']);
    expect(renamed.status).toBe(1);
    expect(renamed.stderr).toContain("error the name 'renamed' is taken by the skill in skills/b/dup ('renamed')");
    expect((await runSkilldex(root, ['new', 'dup', '--category', 'e', '--description', 'Does y. Use it when testing.'])).status).toBe(0);

    const composite = await runSkilldex(root, ['new', 'pipeline', '--format', 'skill-json', '--mode', 'composite', '--category', 'f', '--description', 'Runs a step. Use it when testing.']);
    expect(composite.status, composite.stderr).toBe(0);
    expect(composite.stderr).toContain('calls (pass --calls to choose): step_one');
    const declared = JSON.parse(await readFile(join(root, 'skills', 'f', 'pipeline', 'skill.json'), 'utf8')) as { calls: string[]; pipeline: { skill: string; input: unknown }[] };
    expect(declared.calls).toEqual(['step_one']);
    // The input is mapped from the recorded skill's input schema.
    expect(declared.pipeline.map((step) => [step.skill, step.input])).toEqual([['step_one', { text: '{{input.text}}' }]]);

    expect(await readFile(cacheFile)).toEqual(cached);
    expect((await stat(cacheFile)).mtimeMs).toBe(stamp);
  });
});
