import { stripTypeScriptTypes } from 'node:module';

/**
 * Why Node cannot run a TypeScript file, or undefined when it can. Node runs TypeScript by erasing
 * its types, and a skill's module entry and the files it imports run that way: an `enum`, a
 * `namespace`, a parameter property or a `<T>x` assertion has no erasable form and fails when the
 * skill runs. Node's own type stripper reads the file here (it parses, it never evaluates), so the
 * pull request learns what the user would have. A file with none of those constructs is not read
 * (a plain syntax error in it shows when the skill runs).
 *
 * @example
 * typescriptProblem('enum Color { Red }'); // 'TypeScript enum is not supported in strip-only mode'
 */
export function typescriptProblem(source: string): string | undefined {
  // Loading the stripper costs ~50 ms a thread and each file ~0.25 ms: only a file that may hold
  // one of these constructs is read by it (none of the bench's 296 generated entries does).
  if (!MAY_NOT_ERASE.test(source)) return undefined;
  try {
    quietly(() => stripTypeScriptTypes(source, { mode: 'strip' }));
    return undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX' || code === 'ERR_INVALID_TYPESCRIPT_SYNTAX') return (error as Error).message;
    throw error;
  }
}

/**
 * What may have no erasable form: `enum`, `namespace` or `module` blocks, parameter properties,
 * `import x = require()`, `export =`, and a `<T>x` assertion where an expression starts. A match
 * only means the stripper reads the file; it decides.
 */
const MAY_NOT_ERASE = /\b(?:enum|namespace|module)\s+[\w$"']|\bconstructor\s*\([^)]*\b(?:public|private|protected|readonly)\s|\bimport\s+[\w$]+\s*=\s*require\b|\bexport\s*=|(?:[=(,:?&|!]|\breturn|\byield|\bawait)\s*<[\w$.[\]|&\s,]+>\s*[\w$(]/;

/**
 * Runs `work` without the ExperimentalWarning Node prints the first time its type stripper is
 * called: a warning about Skilldex's own choice of API is noise in a validation report.
 */
function quietly<T>(work: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (!text.includes('stripTypeScriptTypes')) (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return work();
  } finally {
    process.emitWarning = emit;
  }
}
