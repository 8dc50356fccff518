import { describe, expect, it } from 'vitest';
import { repositoryFilesBase, sourceLinks } from '../../src/site/catalog/source-links.ts';

const skill = { name: 'csv-profile', sourcePath: 'skills/data/csv-profile', sourceFile: 'SKILL.md' };

describe('sourceLinks', () => {
  it('spells GitHub, GitLab and Gitea paths, with an issue link', () => {
    expect(sourceLinks({ url: 'https://github.com/acme/skills.git', branch: 'main' }, skill)).toEqual({
      source: 'https://github.com/acme/skills/tree/main/skills/data/csv-profile',
      edit: 'https://github.com/acme/skills/edit/main/skills/data/csv-profile/SKILL.md',
      issue: 'https://github.com/acme/skills/issues/new?title=csv-profile%3A%20',
    });
    expect(sourceLinks({ url: 'https://gitlab.com/acme/skills/', branch: 'main' }, skill)).toEqual({
      source: 'https://gitlab.com/acme/skills/-/tree/main/skills/data/csv-profile',
      edit: 'https://gitlab.com/acme/skills/-/edit/main/skills/data/csv-profile/SKILL.md',
      issue: 'https://gitlab.com/acme/skills/-/issues/new?issue%5Btitle%5D=csv-profile%3A%20',
    });
    expect(sourceLinks({ url: 'https://codeberg.org/acme/skills', branch: 'dev' }, skill)).toEqual({
      source: 'https://codeberg.org/acme/skills/src/branch/dev/skills/data/csv-profile',
      edit: 'https://codeberg.org/acme/skills/_edit/dev/skills/data/csv-profile/SKILL.md',
      issue: 'https://codeberg.org/acme/skills/issues/new?title=csv-profile%3A%20',
    });
  });

  it('gives no links without a repository or for a URL that is not plain http(s)', () => {
    expect(sourceLinks(undefined, skill)).toBeUndefined();
    expect(sourceLinks({ url: 'javascript:alert(1)', branch: 'main' }, skill)).toBeUndefined();
    expect(sourceLinks({ url: 'git@github.com:acme/skills.git', branch: 'main' }, skill)).toBeUndefined();
    expect(sourceLinks({ url: 'https://user:token@github.com/acme/skills', branch: 'main' }, skill)).toBeUndefined();
    expect(sourceLinks({ url: 'not a url', branch: 'main' }, skill)).toBeUndefined();
  });

  it('escapes hostile branch, path and name parts', () => {
    const links = sourceLinks({ url: 'https://github.com/acme/skills', branch: 'x"><script>' }, { name: 'a&b"<', sourcePath: 'skills/we ird/#x', sourceFile: 'SKILL.md?' })!;
    for (const href of Object.values(links)) expect(href).not.toMatch(/[<>"\s]|#x|\?$/);
    expect(links.edit).toBe('https://github.com/acme/skills/edit/x%22%3E%3Cscript%3E/skills/we%20ird/%23x/SKILL.md%3F');
  });
});

describe('repositoryFilesBase', () => {
  it("is where a repository file's path goes to show it on GitHub, GitLab and Gitea, or nothing", () => {
    expect(repositoryFilesBase({ url: 'https://github.com/acme/skills.git', branch: 'main' })).toBe('https://github.com/acme/skills/blob/main/');
    expect(repositoryFilesBase({ url: 'https://gitlab.com/acme/skills/', branch: 'release/2' })).toBe('https://gitlab.com/acme/skills/-/blob/release%2F2/');
    expect(repositoryFilesBase({ url: 'https://codeberg.org/acme/skills', branch: 'dev' })).toBe('https://codeberg.org/acme/skills/src/branch/dev/');
    expect(repositoryFilesBase(undefined)).toBeUndefined();
    expect(repositoryFilesBase({ url: 'javascript:alert(1)', branch: 'main' })).toBeUndefined();
    expect(repositoryFilesBase({ url: 'https://user:token@github.com/acme/skills', branch: 'main' })).toBeUndefined();
  });
});
