import { spawn } from 'node:child_process';
import { mayBeInGitCheckout } from '../git-checkout.ts';
import { HistoryUnreadableError } from './history-error.ts';

/**
 * Reading a registry's git history: one `git log` over the skills folder and `git cat-file`
 * batches for old blobs. Only plumbing that reads objects runs: no checkout, no hooks, no
 * clean/smudge filters, no textconv or external diff, no signature checks, no index refresh,
 * and nothing from a skill is executed. Every output is bounded.
 */

/** One file a commit changed below the skills folder (paths relative to the registry root). */
export interface CommitChange {
  path: string;
  /** The new mode (`100644`, `100755`, `120000` link, `160000` submodule); `000000` when deleted. */
  mode: string;
  /** The new blob id; undefined when the file was deleted. */
  oid: string | undefined;
}

export interface LogCommit {
  id: string;
  /** Committer time, seconds since the epoch. */
  time: number;
  /** The subject; for a merge, the first line of its body when it has one (GitHub puts the pull request's title there). */
  subject: string;
  changes: CommitChange[];
  /**
   * For a merge whose message is only git's own ("Merge branch 'x'", no body), the commits it
   * brought in, newest first: their subjects say what changed, the merge's says nothing.
   */
  brought?: LogCommit[];
}

export type GitHead =
  | { status: 'ok'; head: string }
  /** `root` is not in a git checkout, or the checkout has no commit yet: nothing to read, nothing to report. */
  | { status: 'none' }
  | { status: 'shallow'; head: string }
  | { status: 'unreadable'; reason: string };

/** Bounds on what git may print: the log of a very long history, and one batch of blobs. */
export const MAX_LOG_BYTES = 512 * 1024 * 1024;

/**
 * Options that keep git from running anything configured in the repository: hooks, an fsmonitor
 * daemon, an external diff, GPG for signatures. Passed before the subcommand.
 */
const SAFE_CONFIG = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'diff.external=', '-c', 'log.showSignature=false', '--no-replace-objects'];
/**
 * No prompts, no optional lock or index refresh while the build reads, the skills folder taken
 * literally (no pathspec magic), and no fetch from a partial clone's remote (git 2.44 and later;
 * a blob the clone lacks is then missing, as in any incomplete history).
 */
const SAFE_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_LITERAL_PATHSPECS: '1', GIT_NO_LAZY_FETCH: '1' };

class GitFailure extends Error {}

/**
 * Runs git in `cwd` with {@link SAFE_CONFIG} and {@link SAFE_ENV}, feeding `input`, and resolves
 * with stdout; refuses output beyond `maxBytes`. Every git the build starts goes through here: the
 * user's own config (`log.showSignature`, replacement refs) must not change what it prints.
 */
export function runGit(cwd: string, args: readonly string[], options: { input?: string; maxBytes?: number } = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? MAX_LOG_BYTES;
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, ...args], { cwd, env: { ...process.env, ...SAFE_ENV }, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failed: Error | undefined;
    child.on('error', (error) => {
      failed = error;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        failed ??= new GitFailure(`git ${args[0]} printed more than ${maxBytes} bytes`);
        child.kill();
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    child.on('close', (code) => {
      if (failed) reject(failed);
      else if (code !== 0) {
        // git's own verdict, not a warning printed before it ("lazy fetching disabled").
        const lines = stderr.trim().split('\n');
        reject(new GitFailure(lines.find((line) => /^(fatal|error):/.test(line)) ?? (lines[0] || `git ${args[0]} exited with ${code}`)));
      } else resolve(Buffer.concat(chunks));
    });
  });
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The commit `root`'s checkout is at, and whether its history is complete (one `git rev-parse`). */
export async function readHead(root: string): Promise<GitHead> {
  // Not in any repository: what git would say, without starting it.
  if (!mayBeInGitCheckout(root)) return { status: 'none' };
  try {
    const [shallow, head = ''] = (await runGit(root, ['rev-parse', '--is-shallow-repository', '--verify', 'HEAD^{commit}'])).toString('utf8').trim().split('\n');
    return shallow === 'true' ? { status: 'shallow', head } : { status: 'ok', head };
  } catch (error) {
    // Not a checkout (a plain folder, an extracted archive) or no commit yet: there is no history.
    if (error instanceof GitFailure && /not a git repository|unknown revision|ambiguous argument|needed a single revision/i.test(error.message)) return { status: 'none' };
    return { status: 'unreadable', reason: reasonOf(error) };
  }
}

/** What every `git log` here prints, in the shape {@link parseRawLog} reads. */
const LOG_ARGS = ['log', '--no-renames', '--no-ext-diff', '--no-textconv', '--no-color', '--raw', '-z', '--no-abbrev', '--relative', '--format=%x1e%H%x1f%P%x1f%ct%x1f%B'];
/** How many untitled merges have the commits they brought in read (see {@link LogCommit.brought}). */
export const MAX_UNTITLED_MERGES = 200;

/**
 * The first-parent history of `skillsDir` (relative to `root`) up to `head`, newest first: the
 * commits the registry's branch was built from, each with the files it changed relative to its
 * first parent (so a merged pull request counts as one change). Paths are relative to `root`.
 */
export async function readGitLog(root: string, skillsDir: string, head: string): Promise<{ commits: LogCommit[] } | { unreadable: string }> {
  try {
    const out = await runGit(root, [...LOG_ARGS, '--first-parent', head, '--', skillsDir]);
    const commits = parseRawLog(out);
    // One more `git log` per untitled merge, newest first and bounded: a long history of local
    // merges must not cost thousands of processes. Merges past the bound show no subjects.
    let budget = MAX_UNTITLED_MERGES;
    for (const commit of commits) {
      if (!commit.brought || budget-- <= 0) continue;
      commit.brought = parseRawLog(await runGit(root, [...LOG_ARGS, '--no-merges', `${commit.id}^1..${commit.id}`, '--', skillsDir]));
    }
    return { commits };
  } catch (error) {
    return { unreadable: reasonOf(error) };
  }
}

/** Subjects are shown on pages and in terminals: one line, no control characters, bounded. */
const MAX_SUBJECT = 200;
const oneLine = (text: string): string => {
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUBJECT ? `${line.slice(0, MAX_SUBJECT - 1)}…` : line;
};

/**
 * Parses `git log --raw -z` output in the format {@link readGitLog} asks for. Pure. A commit's
 * header (id, parents, time, then the raw message, whose first paragraph is the subject) runs up
 * to the first NUL (commit messages cannot hold one); raw entries are
 * `:<old mode> <new mode> <old id> <new id> <status>\0<path>\0`.
 */
export function parseRawLog(out: Buffer): LogCommit[] {
  const commits: LogCommit[] = [];
  let at = 0;
  const nul = (from: number) => {
    const end = out.indexOf(0, from);
    return end === -1 ? out.length : end;
  };
  let current: LogCommit | undefined;
  while (at < out.length) {
    const byte = out[at];
    if (byte === 0x1e) {
      const end = nul(at + 1);
      // Id, parents and time hold no separator; the raw message after them may hold anything but NUL.
      const [id = '', parents = '', time = '0', ...rest] = out.toString('utf8', at + 1, end).split('\x1f');
      const [subject = '', ...body] = rest.join('\x1f').trim().split(/\n[ \t]*\n/);
      const merge = parents.trim().split(' ').length > 1;
      const bodyLine = body.join('\n').split('\n').find((line) => line.trim() !== '');
      current = { id, time: Number(time), subject: oneLine(merge && bodyLine ? bodyLine : subject), changes: [], ...(merge && !bodyLine ? { brought: [] } : {}) };
      commits.push(current);
      at = end + 1;
    } else if (byte === 0x3a /* : */) {
      const metaEnd = nul(at);
      const [, newMode = '', , newOid = '', status = ''] = out.toString('latin1', at + 1, metaEnd).split(' ');
      const pathEnd = nul(metaEnd + 1);
      const path = out.toString('utf8', metaEnd + 1, pathEnd);
      current?.changes.push({ path, mode: newMode, oid: status === 'D' || /^0+$/.test(newOid) ? undefined : newOid });
      at = pathEnd + 1;
    } else {
      at++; // the newline between a header and its entries
    }
  }
  return commits;
}

/** What `git cat-file` knows of a blob: its size, and its bytes when asked for and within the bound. */
export interface BlobRead {
  size: number;
  bytes?: Uint8Array;
}

/**
 * Reads blobs by id in two batches (one process each): sizes first, then the bytes of those no
 * larger than `maxBlobBytes`, so a huge file in old history is never loaded. Ids git does not have
 * are left out of the result. Objects are read raw: no filter or conversion is applied.
 */
export async function readBlobs(root: string, oids: readonly string[], maxBlobBytes: number): Promise<Map<string, BlobRead>> {
  const out = new Map<string, BlobRead>();
  const unique = [...new Set(oids)].filter((oid) => /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(oid));
  if (unique.length === 0) return out;
  // An older git still fetches a partial clone's missing blobs on demand, and fails when the remote is out of reach.
  const catFile = (args: string[], options: { input: string; maxBytes?: number }) => runGit(root, args, options).catch((error: unknown) => Promise.reject(new HistoryUnreadableError(reasonOf(error), error)));
  const checked = (await catFile(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], { input: `${unique.join('\n')}\n` })).toString('latin1');
  const wanted: string[] = [];
  let total = 0;
  for (const line of checked.split('\n')) {
    const [oid = '', type, size] = line.split(' ');
    if (type !== 'blob') continue;
    out.set(oid, { size: Number(size) });
    if (Number(size) <= maxBlobBytes) {
      wanted.push(oid);
      total += Number(size) + 128;
    }
  }
  if (wanted.length === 0) return out;
  const data = await catFile(['cat-file', '--batch=%(objectname) %(objecttype) %(objectsize)'], { input: `${wanted.join('\n')}\n`, maxBytes: total });
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf(0x0a, at);
    if (lineEnd === -1) break;
    const [oid = '', type, sizeText] = data.toString('latin1', at, lineEnd).split(' ');
    const size = Number(sizeText);
    at = lineEnd + 1;
    if (type === 'missing') continue; // gone since the size check: no content follows
    if (!Number.isSafeInteger(size) || at + size > data.length) break;
    if (type === 'blob') out.set(oid, { size, bytes: new Uint8Array(data.buffer, data.byteOffset + at, size) });
    at += size + 1; // the content, then a newline
  }
  return out;
}
