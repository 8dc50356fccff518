/**
 * Skilldex runs as TypeScript in a checkout (through Node's type stripping) and as compiled
 * JavaScript in the npm package, where Node refuses to strip types under node_modules. A module
 * that names a sibling file at run time (a worker, a child-process harness) uses its own
 * extension, so one source resolves in both forms.
 *
 * @example
 * new Worker(siblingModule(import.meta.url, './worker')); // worker.ts in a checkout, worker.js installed
 */
export const moduleExtension = (moduleUrl: string): '.ts' | '.js' => (moduleUrl.endsWith('.ts') ? '.ts' : '.js');

/** The URL of `stem` (relative to `moduleUrl`) with the extension `moduleUrl` itself has. */
export const siblingModule = (moduleUrl: string, stem: string): URL => new URL(`${stem}${moduleExtension(moduleUrl)}`, moduleUrl);
