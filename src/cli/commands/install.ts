import { defineCommand } from 'citty';
import { choiceError, CliError } from '../_errors.ts';
import { outJson, out, style, visible } from '../_output.ts';
import { formatBytes, openRegistryFromArgs, registryArgs } from '../_registry.ts';
import { closest } from '../../core/suggest.ts';
import { AGENT_ALIASES, AGENT_SKILL_FOLDERS, agentSkillFolder } from '../../runtime/node/install.ts';

export default defineCommand({
  meta: { name: 'install', description: 'Download, verify (every sha256 and the tree digest) and install a skill into a folder or an agent folder' },
  args: {
    name: { type: 'positional', description: 'Skill name (case-insensitive), optionally with @version or @range for an earlier version: pdf@1.2.0, pdf@^1.2', required: true },
    to: { type: 'string', description: 'Agent folder under --dir: claude (.claude/skills), agents (.agents/skills), vscode or copilot (GitHub Copilot), or any agent the `skills` CLI knows (cursor, codex, gemini-cli, windsurf, …)' },
    dir: { type: 'string', description: 'Base folder (default: the current folder); without --to the skill goes to <dir>/<name>', default: '.' },
    via: { type: 'string', description: 'archive (one .tar.gz, default) or files (one request per file)', default: 'archive' },
    force: { type: 'boolean', description: 'Replace what is at the destination even when it is not an earlier install of this skill (it is deleted)', default: false },
    ...registryArgs,
  },
  async run({ args }) {
    if (args.via !== 'archive' && args.via !== 'files') throw choiceError('via', String(args.via), ['archive', 'files']);
    // A mistyped agent is a usage error, found before any network request.
    if (args.to && !agentSkillFolder(args.to)) {
      const guess = closest(args.to, [...Object.keys(AGENT_ALIASES), ...Object.keys(AGENT_SKILL_FOLDERS), ...new Set(Object.values(AGENT_SKILL_FOLDERS))]);
      throw new CliError('E_USAGE', `unknown install target '${args.to}'`, {
        exitCode: 2,
        hint: `${guess ? `did you mean '${guess}'? ` : ''}name an agent as the \`skills\` CLI spells it (claude-code, cursor, codex, …), claude, agents, or an agent's folder such as .claude/skills; --dir alone installs into any folder`,
      });
    }
    const registry = await openRegistryFromArgs(args);
    const tty = process.stderr.isTTY;
    let shown = 0;
    // Progress only for downloads worth watching, and only on a terminal: a pipe or a log gets
    // nothing, as from every command that draws progress.
    const onProgress = tty
      ? (received: number, total: number | undefined) => {
          if (received - shown < 256 * 1024 && received !== total) return;
          shown = received;
          process.stderr.write(`\r${`downloading ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}`}`);
        }
      : undefined;
    const result = await registry.install(String(args.name), String(args.dir), { to: args.to, via: args.via, ...(onProgress ? { onProgress } : {}), force: args.force === true });
    if (tty && shown > 0) process.stderr.write('\n');
    // A version asked for is named in the answer: which one a range selected is the point.
    const label = String(args.name).includes('@') ? `${result.name}@${result.version}` : result.name;
    if (args.json) outJson(result);
    else if (result.changed) out(`${style.green('installed')} ${visible(`${label} → ${result.dir} (${result.files} ${result.files === 1 ? 'file' : 'files'}, verified ${result.digest})`)}`);
    else out(visible(`${label} is already installed at ${result.dir} (verified ${result.digest})`));
    return 0;
  },
});
