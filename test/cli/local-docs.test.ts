import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withLocalDocs } from '../../src/cli/_output.ts';
import { REPO } from '../helpers/cli.ts';

/**
 * Help and hints name Skilldex's documents as a checkout holds them; a project that installed the
 * package holds them under node_modules/skilldex/. withLocalDocs points each mention at the file.
 */
describe('withLocalDocs', () => {
  it('leaves the mentions alone in the checkout, where they are right', () => {
    expect(withLocalDocs('see docs/rules.md#name-folder-mismatch and schemas/config.schema.json', REPO, REPO)).toBe('see docs/rules.md#name-folder-mismatch and schemas/config.schema.json');
  });

  it('names the installed copy, relative to the project, or absolute from elsewhere', () => {
    // From the folder above the package (as a project above node_modules/skilldex): a relative path.
    expect(withLocalDocs('Reference: docs/cli.md', REPO, join(REPO, '..'))).toBe(`Reference: ${join(REPO.split('/').at(-1)!, 'docs', 'cli.md')}`);
    expect(withLocalDocs('(docs/security.md#the-chain-of-trust)', REPO, join(REPO, 'skills'))).toBe(`(${join(REPO, 'docs', 'security.md')}#the-chain-of-trust)`);
    expect(withLocalDocs('Reference: docs/cli.md', REPO, join(REPO, 'skills'))).toBe(`Reference: ${join(REPO, 'docs', 'cli.md')}`);
    // The index of the docs too (skilldex new --help names it for the formats).
    expect(withLocalDocs('(formats: docs/README.md)', REPO, join(REPO, 'skills'))).toBe(`(formats: ${join(REPO, 'docs', 'README.md')})`);
  });

  it('does not touch a path it does not hold, or one inside another path', () => {
    expect(withLocalDocs('docs/not-a-page.md, skills/x/docs/cli.md, ./docs/cli.md', REPO, '/')).toBe('docs/not-a-page.md, skills/x/docs/cli.md, ./docs/cli.md');
  });
});
