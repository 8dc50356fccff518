/**
 * skilldex.config.json's rule severities name real rules of the right engine: a typo would
 * otherwise leave the rule at its default without a word.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/pipeline/index.ts';
import { REPO, runSkilldex } from '../helpers/cli.ts';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-config-'));
  await mkdir(join(root, 'skills', 'hello'), { recursive: true });
  await writeFile(join(root, 'skills', 'hello', 'SKILL.md'), '---\nname: hello\ndescription: Says hello to whoever asks for a greeting.\n---\n\nSay hello.\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const withConfig = async (text: string) => {
  await writeFile(join(root, 'skilldex.config.json'), text);
  return loadConfig(root).then(
    (config) => ({ config, error: undefined }),
    (error: unknown) => ({ config: undefined, error: error as ConfigError }),
  );
};

describe('rule ids in skilldex.config.json', () => {
  it('accepts validator, pull-request and scanner ids where they belong', async () => {
    const { config, error } = await withConfig('{\n  "rules": { "body/empty": "off", "publish/mixed-change": "error" },\n  "scan": { "rules": { "exec/download-pipe-shell": "critical" } }\n}\n');
    expect(error).toBeUndefined();
    expect(config?.rules).toEqual({ 'body/empty': 'off', 'publish/mixed-change': 'error' });
  });

  it('refuses an id that names no rule, with its line and the closest id', async () => {
    const { error } = await withConfig('{\n  "rules": {\n    "frontmatter/unknown-fields": "error"\n  }\n}\n');
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toMatch(/^skilldex\.config\.json:3:\d+ rules: no rule 'frontmatter\/unknown-fields'; did you mean 'frontmatter\/unknown-field'\?$/);
    expect(error?.hint).toContain('docs/rules.md');
  });

  it('refuses a scanner rule under "rules" and a validator rule under "scan.rules", saying where each goes', async () => {
    const scanner = await withConfig('{ "rules": { "exec/download-pipe-shell": "off" } }');
    expect(scanner.error?.message).toContain(`rules: 'exec/download-pipe-shell' is a security scanner rule; set its severity under "scan.rules"`);
    const validator = await withConfig('{ "scan": { "rules": { "name/length": "off" } } }');
    expect(validator.error?.message).toContain(`scan.rules: 'name/length' is a validation rule; set its severity under "rules"`);
  });

  it('reaches the CLI as one error line with a hint, exit 1, no stack trace', async () => {
    await writeFile(join(root, 'skilldex.config.json'), '{ "scan": { "rules": { "secret/literal-key": "off" } } }');
    const result = await runSkilldex(root, ['validate']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error skilldex\.config\.json:1:\d+ scan\.rules: no rule 'secret\/literal-key'/m);
    // Run from the registry, outside Skilldex's own folder: the hint names the document where it is.
    expect(result.stderr).toContain(`hint: scanner rule ids are listed in ${join(REPO, 'docs', 'security.md')}`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('the rest of skilldex.config.json', () => {
  it('refuses a key it does not know (a misspelt "title" would be dropped without a word)', async () => {
    const { error } = await withConfig('{ "titel": "My skills" }\n');
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toContain('Unrecognized key: "titel"');
  });

  it('refuses a siteUrl that is not an absolute http(s) URL, which index.json and every link would carry', async () => {
    for (const bad of ['not a url', 'ftp://skills.example.org/', 'https://user:pw@skills.example.org/', 'https://skills.example.org/?x=1']) {
      const { error } = await withConfig(JSON.stringify({ siteUrl: bad }));
      expect(error?.message, bad).toContain('siteUrl: must be the absolute http(s) URL');
    }
    expect((await withConfig('{ "siteUrl": "https://user.github.io/repo/" }')).error).toBeUndefined();
  });

  it('refuses a required package field no skill can have, which would fail every package', async () => {
    const { error } = await withConfig('{ "requiredPackageFields": ["version", "bogus"] }\n');
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toContain('requiredPackageFields.1');
    expect((await withConfig('{ "requiredPackageFields": ["version", "license"] }\n')).error).toBeUndefined();
  });
});

describe('limits a client cannot follow', () => {
  it('refuses limits.maxFiles and limits.maxSkillBytes past what a client reads of one skill, which would publish skills no client installs', async () => {
    const files = await withConfig('{ "limits": { "maxFiles": 10001 } }\n');
    expect(files.error).toBeInstanceOf(ConfigError);
    expect(files.error?.message).toContain('limits.maxFiles: must be at most 10000: no client reads more files of one skill');
    const bytes = await withConfig(`{ "limits": { "maxSkillBytes": ${256 * 1024 * 1024 + 1} } }\n`);
    expect(bytes.error?.message).toContain('limits.maxSkillBytes: must be at most 268435456 (256 MiB)');
    expect((await withConfig(`{ "limits": { "maxFiles": 10000, "maxSkillBytes": ${256 * 1024 * 1024} } }\n`)).error).toBeUndefined();
  });
});

describe('a config that is not a plain file', () => {
  it('is refused at once, through the CLI too: a link to /dev/zero, a pipe or a folder', async () => {
    const { execFileSync } = await import('node:child_process');
    const { symlink } = await import('node:fs/promises');
    const dir = await mkdtemp(join(tmpdir(), 'skilldex-config-odd-'));
    try {
      await mkdir(join(dir, 'skills'));
      const file = join(dir, 'skilldex.config.json');
      await symlink('/dev/zero', file);
      await expect(loadConfig(dir)).rejects.toThrow(ConfigError);
      const cli = await runSkilldex(dir, ['build']);
      expect(cli.status).toBe(1);
      expect(cli.stderr).toContain('skilldex.config.json is not a readable file of at most 1 MB');
      await rm(file);
      execFileSync('mkfifo', [file]);
      await expect(loadConfig(dir)).rejects.toThrow('is not a readable file');
      await rm(file);
      await mkdir(file);
      await expect(loadConfig(dir)).rejects.toThrow('is not a readable file');
      await rm(file, { recursive: true });
      // A link to a plain file is read as the file.
      await writeFile(join(dir, 'real.json'), '{ "title": "Linked" }');
      await symlink('real.json', file);
      expect((await loadConfig(dir)).title).toBe('Linked');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
