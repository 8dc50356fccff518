import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Real git repositories in temporary folders, with fixed identities and dates so commit ids
 * (and everything derived from them) are the same on every run.
 */
const DATE = '2026-01-12T10:00:00Z';
const GIT_ENV = {
  GIT_AUTHOR_DATE: DATE,
  GIT_COMMITTER_DATE: DATE,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Skilldex Test', '-c', 'user.email=test@skilldex.invalid', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV },
  });
}

export type Tree = Record<string, string>;

export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, content] of Object.entries(tree)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

export async function removePaths(root: string, ...paths: string[]): Promise<void> {
  for (const p of paths) await rm(join(root, p), { recursive: true, force: true });
}

/** A repository whose `main` holds `tree` in one commit. */
export async function createRepo(tree: Tree): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'skilldex-pr-'));
  git(root, 'init', '-q', '-b', 'main');
  await writeTree(root, tree);
  commitAll(root, 'base');
  return root;
}

export function commitAll(root: string, message: string): void {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
}

/** SKILL.md text for a plain or versioned skill. */
export function skillMd(name: string, fields: Record<string, string> = {}, body = `# ${name}\n\nFollow these steps.\n`): string {
  const extra = Object.entries(fields).map(([k, v]) => `${k}: ${v}\n`).join('');
  return `---\nname: ${name}\ndescription: ${name} does one thing well; use it when testing the publish flow.\n${extra}---\n\n${body}`;
}
