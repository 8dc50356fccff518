/**
 * Runs inside the sandbox, before the skill: listens on 127.0.0.1:<port> in the sandbox's own
 * network namespace and relays each connection to the egress proxy's Unix socket, then starts the
 * skill's command with the same stdin, stdout, stderr and service channel (fd 3), and exits with its status. The skill
 * reaches the network only through HTTP_PROXY / HTTPS_PROXY pointing here.
 *
 *   node egress-bridge.ts <unix socket> <port> -- <command> [args…]
 */
import { spawn } from 'node:child_process';
import { fstatSync } from 'node:fs';
import { connect, createServer } from 'node:net';

const [socketPath, port, separator, command, ...args] = process.argv.slice(2);
if (!socketPath || !port || separator !== '--' || !command) {
  process.stderr.write('usage: egress-bridge <unix socket> <port> -- <command> [args…]\n');
  process.exit(125);
}

const relay = createServer((client) => {
  const upstream = connect(socketPath);
  client.pipe(upstream).pipe(client);
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
});

function hasFd(fd: number): boolean {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
}

relay.listen(Number(port), '127.0.0.1', () => {
  // fd 3, when open, is the context-service channel (docs/context.md); the skill needs it too.
  const child = spawn(command, args, { stdio: ['inherit', 'inherit', 'inherit', ...(hasFd(3) ? [3] : [])] });
  child.on('error', (error) => {
    process.stderr.write(`cannot start ${command}: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
});
