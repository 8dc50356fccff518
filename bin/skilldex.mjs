#!/usr/bin/env node
// Thin launcher: the CLI is TypeScript run by Node's built-in type stripping (Node >= 22.18).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    `skilldex needs Node >= 22.18 (this is ${process.version}).\n` +
      'hint: run it through npm (`npx skilldex …` or `npm run skilldex -- …`), which uses the Node that `npm install` placed in node_modules/.bin.\n',
  );
  process.exit(2);
}
// Cache compiled (and type-stripped) modules on disk: most of a short command's time is startup.
(await import('node:module')).enableCompileCache?.();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
