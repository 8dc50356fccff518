import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A real git repository in a temporary folder, for tests of what the build reads from history.
 * Commits get fixed author and committer dates, so builds from it are reproducible.
 */
export class GitRepo {
  readonly root: string;

  constructor(prefix: string) {
    this.root = mkdtempSync(join(tmpdir(), `skilldex-test-${prefix}-`));
    this.git('init', '-q', '-b', 'main');
    this.git('config', 'user.email', 'maintainer@example.org');
    this.git('config', 'user.name', 'Maintainer');
    this.git('config', 'commit.gpgsign', 'false');
  }

  /** Runs git in the repository and returns its stdout. */
  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.root, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  }

  write(path: string, content: string | Uint8Array): this {
    const abs = join(this.root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    return this;
  }

  remove(path: string): this {
    rmSync(join(this.root, path), { recursive: true, force: true });
    return this;
  }

  /** Commits everything (additions and removals) at `date` (ISO) and returns the commit id. */
  commit(message: string, date: string): string {
    this.git('add', '-A');
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', message], { cwd: this.root, env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
    return this.git('rev-parse', 'HEAD').trim();
  }
}

/** A SKILL.md with the given name, version and body. */
export const skillMd = (name: string, version: string, body = `# ${name}\n\nDo the thing.\n`, extra = ''): string =>
  `---\nname: ${name}\ndescription: ${name} does one thing well, when an agent asks for it.\nversion: ${version}\n${extra}---\n${body}`;
