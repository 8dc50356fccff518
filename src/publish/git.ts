import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { GitError } from './git-error.ts';
import { makeFolder } from '../core-node/make-folder.ts';

/**
 * The few git operations a pull-request check needs. Everything goes through `git` itself
 * (never a library re-implementing it), reads only, and never touches the index, HEAD or the
 * working tree: the base revision is read with `git archive`, not checked out.
 */

const MAX_BUFFER = 512 * 1024 * 1024;

/** Runs git in `cwd` and resolves with its stdout bytes. */
export function git(cwd: string, args: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: MAX_BUFFER, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
      if (error) reject(new GitError(args, stderr.toString('utf8') || error.message, error));
      else resolve(stdout);
    });
  });
}

const text = async (cwd: string, args: readonly string[]) => (await git(cwd, args)).toString('utf8').trim();
const nulList = (buffer: Buffer) => buffer.toString('utf8').split('\0').filter(Boolean);

/**
 * The commit a branch forked from `ref` at: what a pull request is compared against. Using the
 * merge base (like `git diff ref...HEAD`) means commits that landed on the base branch after the
 * fork never count as this branch's changes.
 */
export async function mergeBase(cwd: string, ref: string): Promise<string> {
  await text(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch((error: unknown) => {
    // Outside a repository git names no revision at all; saying the ref is unknown sent people
    // looking for a branch that was never the problem.
    const outside = error instanceof GitError && /not a git repository/i.test(error.stderr);
    throw new GitError(['rev-parse', ref], outside ? `${cwd} is not inside a git working tree` : `unknown revision '${ref}'`, error);
  });
  return text(cwd, ['merge-base', ref, 'HEAD']).catch(async (error: unknown) => {
    // merge-base exits 1, saying nothing, when it finds no common commit (errors exit 128). In CI
    // that is a shallow clone, the history between the branches left out, far more often than
    // unrelated histories: git's bare "Command failed" said neither.
    if (!(error instanceof GitError) || (error.cause as { code?: unknown } | undefined)?.code !== 1) throw error;
    const shallow = (await text(cwd, ['rev-parse', '--is-shallow-repository']).catch(() => '')) === 'true';
    throw new GitError(['merge-base', ref, 'HEAD'], shallow
      ? `'${ref}' and HEAD share no commit in this clone: it is shallow, so the history between them was not fetched`
      : `'${ref}' and HEAD share no commit: their histories are unrelated`, error);
  });
}

/**
 * Files that differ between `base` and the working tree (committed, staged or not), plus
 * untracked files that are not ignored, as paths relative to `cwd`. Renames count as a deletion
 * and an addition so both folders are seen.
 */
export async function changedFiles(cwd: string, base: string): Promise<string[]> {
  const diff = nulList(await git(cwd, ['diff', '--name-only', '--no-renames', '--relative', '-z', base, '--']));
  const untracked = nulList(await git(cwd, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']));
  return [...new Set([...diff, ...untracked])].sort();
}

/**
 * Writes the files under `subdir` (relative to `cwd`) as they were at `rev` into `dest/subdir`.
 * Returns false when the folder did not exist at that revision. Symbolic links are skipped:
 * they are never published, so they are no part of a published skill's digest either.
 */
export async function extractTree(cwd: string, rev: string, subdir: string, dest: string): Promise<boolean> {
  const prefix = await text(cwd, ['rev-parse', '--show-prefix']);
  const treeish = `${rev}:${prefix}${subdir.replace(/^\.\/|\/$/g, '')}`;
  try {
    await git(cwd, ['cat-file', '-e', treeish]);
  } catch {
    return false;
  }
  const archive = await git(cwd, ['archive', '--format=tar', treeish]);
  const target = join(dest, subdir);
  makeFolder(target);
  const extract = tar.extract();
  Readable.from([archive]).pipe(extract);
  for await (const entry of extract) {
    const { name, type } = entry.header;
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    // git archive writes plain relative names; anything else would be a corrupt archive.
    if (name.startsWith('/') || name.split('/').includes('..')) continue;
    if (type === 'directory') makeFolder(join(target, name));
    else if (type === 'file') {
      makeFolder(dirname(join(target, name)));
      await writeFile(join(target, name), Buffer.concat(chunks));
    }
  }
  return true;
}
