/**
 * How each MCP client is told to start the Skilldex server for one registry. Pure, so the docs,
 * the catalog's skill pages and tests all show exactly the same text.
 */

export interface McpClientSetupOptions {
  /** The registry's URL (or folder) passed to `--registry`. */
  registryUrl: string;
  /** The npm package that provides the `mcp` command: package.json's `name`. */
  packageName: string;
  /** The key the server is listed under in the client (default `skilldex`). */
  serverName?: string;
}

export interface McpClientSetup {
  id: 'claude-desktop' | 'claude-code' | 'vscode' | 'cursor';
  /** The client's name as its users know it. */
  client: string;
  /** Where the text goes: a config file, or a terminal. */
  where: string;
  language: 'json' | 'shell';
  text: string;
}

const SAFE_SHELL_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** POSIX shell quoting: bare when safe, else single quotes. */
const shellWord = (word: string): string => (SAFE_SHELL_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The command line a client runs: `npx -y <package> mcp --registry <url>`.
 *
 * @example
 * mcpLaunchArgs({ registryUrl: 'https://skills.example.org/', packageName: 'skilldex' });
 * // { command: 'npx', args: ['-y', 'skilldex', 'mcp', '--registry', 'https://skills.example.org/'] }
 */
export function mcpLaunchArgs(options: McpClientSetupOptions): { command: string; args: string[] } {
  return { command: 'npx', args: ['-y', options.packageName, 'mcp', '--registry', options.registryUrl] };
}

/**
 * The setup for Claude Desktop, Claude Code, VS Code and Cursor, with the real registry URL.
 *
 * @example
 * mcpClientSetups({ registryUrl: 'https://skills.example.org/', packageName: 'skilldex' })
 *   .find((s) => s.id === 'claude-code')?.text;
 * // 'claude mcp add skilldex -- npx -y skilldex mcp --registry https://skills.example.org/'
 */
export function mcpClientSetups(options: McpClientSetupOptions): McpClientSetup[] {
  const name = options.serverName ?? 'skilldex';
  const launch = mcpLaunchArgs(options);
  // Indented JSON with each array of plain values on one line, as people write these files. Raw
  // newlines never occur inside JSON strings, so `,\n` only ever separates elements.
  const json = (value: unknown) => JSON.stringify(value, null, 2).replace(/\[\n\s+([^[\]{}]*?)\n\s*\]/g, (_, items: string) => `[${items.split(/,\n\s+/).join(', ')}]`);
  return [
    {
      id: 'claude-desktop',
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
      language: 'json',
      text: json({ mcpServers: { [name]: launch } }),
    },
    {
      id: 'claude-code',
      client: 'Claude Code',
      where: 'a terminal, in your project',
      language: 'shell',
      text: ['claude', 'mcp', 'add', name, '--', launch.command, ...launch.args].map(shellWord).join(' '),
    },
    {
      id: 'vscode',
      client: 'VS Code',
      where: '.vscode/mcp.json',
      language: 'json',
      text: json({ servers: { [name]: { type: 'stdio', ...launch } } }),
    },
    {
      id: 'cursor',
      client: 'Cursor',
      where: '.cursor/mcp.json',
      language: 'json',
      text: json({ mcpServers: { [name]: launch } }),
    },
  ];
}
