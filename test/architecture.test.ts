/**
 * The layout is part of the design: source folders must not be mistaken for output by the common
 * .gitignore templates (Node, Python, Go — their patterns that can match a folder or file name
 * are in test/fixtures/gitignore/templates.gitignore), or tools hide them.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..');
const TEMPLATES = join(REPO, 'test/fixtures/gitignore/templates.gitignore');

describe('source layout', () => {
  it('no file under src/ is ignored by the Node, Python or Go .gitignore templates', () => {
    const files = execFileSync('git', ['ls-files', 'src'], { cwd: REPO, encoding: 'utf8' });
    expect(files.split('\n').filter(Boolean).length).toBeGreaterThan(100);
    let ignored = '';
    try {
      ignored = execFileSync('git', ['-c', `core.excludesFile=${TEMPLATES}`, 'check-ignore', '--no-index', '--stdin', '-v'], { cwd: REPO, encoding: 'utf8', input: files });
    } catch (error) {
      // check-ignore exits 1 when nothing is ignored: what this test wants.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(ignored.split('\n').filter(Boolean)).toEqual([]);
  });
});
