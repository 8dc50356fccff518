#!/usr/bin/env node
// Thin launcher. In a checkout it runs the TypeScript sources through Node's type stripping; the
// npm package ships no sources, only the JavaScript compiled into lib/ (npm run build:package),
// because Node refuses to strip types under node_modules. There it runs the CLI's bundle,
// lib/cli/skilldex.js: loading a few files instead of some 400 modules is most of its start-up.
import { existsSync, readFileSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
const checkout = existsSync(source);
// One floor for both forms, from package.json's engines: type stripping without a flag (22.18)
// for the checkout, and for the package too, whose `run` hands TypeScript skills to this Node.
const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const floor = engines.node.replace(/^>=/, '');
const [major, minor] = process.versions.node.split('.').map(Number);
const [floorMajor, floorMinor] = floor.split('.').map(Number);
if (major < floorMajor || (major === floorMajor && minor < floorMinor)) {
  process.stderr.write(
    `error skilldex needs Node >= ${floor} (this is v${process.versions.node}).\n` +
      (checkout
        ? 'hint: run it through npm (`npx skilldex …` or `npm run skilldex -- …`), which uses the Node that `npm install` placed in node_modules/.bin.\n'
        : `hint: install Node ${floor} or later, or let npx fetch one: \`npx -p node@24 -p skilldex skilldex …\`.\n`),
  );
  process.exit(2);
}
// Cache compiled (and type-stripped) modules on disk: most of a short command's time is startup.
(await import('node:module')).enableCompileCache?.();
const { main } = await import(checkout ? source.href : new URL('../lib/cli/skilldex.js', import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
