import { appendFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { defineCommand } from 'citty';
import { ConfigError, validateRegistry } from '../../build/index.ts';
import { GitError } from '../../publish/git.ts';
import { checkPullRequest, loadPublishedIndex } from '../../publish/pull-request.ts';
import { jobSummaryMarkdown } from '../../publish/summary.ts';
import { CliError, EXIT } from '../_errors.ts';
import { formatArg, printDiagnostics, type DiagnosticFormat } from '../_diagnostics.ts';

export default defineCommand({
  meta: { name: 'validate', description: 'Validate the skills of a registry and report every problem as file:line:col rule message (rules: docs/rules.md)' },
  args: {
    root: { type: 'string', description: 'Registry root (holds skills/ and skilldex.config.json)', default: '.' },
    format: formatArg,
    scan: { type: 'boolean', description: 'Run the security scanner too (--no-scan to skip)', default: true },
    'changed-since': { type: 'string', description: 'Pull-request mode: report only skills changed since the merge base with this git ref, and enforce immutable versions' },
    'against-index': { type: 'string', description: 'Also check versions against a published index.json (URL or file)' },
    summary: { type: 'string', description: 'Append a Markdown job summary to this file (e.g. "$GITHUB_STEP_SUMMARY")' },
  },
  async run({ args }) {
    const root = resolve(String(args.root));
    // Optional positional paths narrow the report to those folders (relative to the current directory).
    const paths = (args._ ?? []).map((p) => relative(root, resolve(String(p))).split('\\').join('/'));
    const changedSince = args['changed-since'] as string | undefined;
    const indexLocation = args['against-index'] as string | undefined;
    try {
      const result = await validateRegistry(root, { scan: args.scan });
      const pullRequest = changedSince !== undefined || indexLocation !== undefined || args.summary !== undefined;
      const check = pullRequest
        ? await checkPullRequest({
            root,
            config: result.config,
            diagnostics: result.diagnostics,
            ...(changedSince !== undefined ? { changedSince } : {}),
            ...(indexLocation !== undefined ? { againstIndex: { source: indexLocation, index: await loadIndex(indexLocation) } } : {}),
          })
        : { changes: [], diagnostics: result.diagnostics };
      const inPaths = (file: string) => paths.length === 0 || paths.some((p) => p === '' || file === p || file.startsWith(`${p.replace(/\/$/, '')}/`));
      const diagnostics = check.diagnostics.filter((d) => inPaths(d.file));

      printDiagnostics(diagnostics, args.format as DiagnosticFormat, {
        accepted: result.accepted.map((s) => s.draft.name),
        rejected: result.rejected.map((r) => ({ dir: r.dir, name: r.name })),
        ...(pullRequest ? { changes: check.changes.map(({ status, name, dir, before, after }) => ({ status, name, dir, before, after: after && { version: after.version, digest: after.digest } })) } : {}),
      });
      if (args.summary) {
        const server = process.env.GITHUB_SERVER_URL;
        const repository = process.env.GITHUB_REPOSITORY;
        const sha = process.env.GITHUB_SHA;
        const markdown = jobSummaryMarkdown({
          ...(changedSince !== undefined ? { base: changedSince } : {}),
          ...('baseCommit' in check && check.baseCommit ? { baseCommit: check.baseCommit } : {}),
          ...(indexLocation !== undefined ? { index: indexLocation } : {}),
          changes: check.changes,
          diagnostics,
          ...(server && repository && sha ? { rulesDoc: `${server}/${repository}/blob/${sha}/docs/rules.md` } : {}),
        });
        await appendFile(resolve(String(args.summary)), `${markdown}\n`);
      }
      return diagnostics.some((d) => d.severity === 'error') ? EXIT.failure : EXIT.ok;
    } catch (error) {
      if (error instanceof ConfigError) throw new CliError('E_CONFIG', error.message, { hint: 'fix skilldex.config.json; its schema is schemas/config.schema.json' });
      if (error instanceof GitError) {
        throw new CliError('E_GIT', error.message, { hint: `--changed-since needs a git working tree and a ref that exists locally (in CI: check out with fetch-depth: 0 and pass origin/<base branch>)`, exitCode: EXIT.usage });
      }
      throw error;
    }
  },
});

async function loadIndex(location: string) {
  try {
    return await loadPublishedIndex(location);
  } catch (error) {
    throw new CliError('E_INDEX', `cannot read the published index: ${(error as Error).message}`, { hint: 'pass the URL of a deployed index.json or a local copy', exitCode: EXIT.usage });
  }
}
