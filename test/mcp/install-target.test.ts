import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInstallTarget } from '../../src/mcp/install-target.ts';
import { tempDir } from '../runtime/_registries.ts';

describe('resolveInstallTarget', () => {
  it('allows agent folders and folders inside the root, and refuses everything that leaves it', async () => {
    const root = await tempDir('mcp-target');
    const outside = await tempDir('mcp-outside');
    await mkdir(join(root, 'links'));
    await symlink(outside, join(root, 'links', 'out'));
    expect(await resolveInstallTarget(root, 'claude', 'pdf')).toEqual({ dir: root, to: 'claude', dest: join(root, '.claude/skills/pdf') });
    expect(await resolveInstallTarget(root, '.agents/skills', 'pdf')).toMatchObject({ dest: join(root, '.agents/skills/pdf') });
    expect(await resolveInstallTarget(root, 'cursor', 'pdf')).toMatchObject({ to: 'cursor', dest: join(root, '.agents/skills/pdf') });
    expect(await resolveInstallTarget(root, 'vendor', 'pdf')).toEqual({ dir: join(root, 'vendor'), dest: join(root, 'vendor/pdf') });
    expect(await resolveInstallTarget(root, join(root, 'abs'), 'pdf')).toMatchObject({ dest: join(root, 'abs/pdf') });
    for (const [target, name] of [['..', 'pdf'], ['/etc', 'pdf'], ['links/out', 'pdf'], ['vendor', '../../escape'], ['.', '.'], ['a\0b', 'pdf']]) {
      await expect(resolveInstallTarget(root, target as string, name as string), `${target} ${name}`).rejects.toMatchObject({ code: expect.stringMatching(/^(INSTALL_FAILED|INVALID_PATH)$/) });
    }
  });
});
