/**
 * The base of every error Skilldex raises for a problem someone can act on: a stable `code`, a
 * message naming what failed (the skill, file, URL or command), and a `hint` saying what to do
 * next. Each kind of failure is a subclass in a file of its own; whoever catches one (the CLI's
 * `main`, the MCP server) prints message, code and hint, never a stack. Anything thrown that is
 * not a `SkilldexError` is a bug.
 *
 * @example
 * try { await registry.load('nope'); }
 * catch (e) { if (e instanceof SkilldexError && e.code === 'SKILL_NOT_FOUND') console.log(e.hint); }
 */
export class SkilldexError<Code extends string = string> extends Error {
  override name = 'SkilldexError';
  readonly code: Code;
  readonly hint: string | undefined;
  /** Machine-readable context (a diagnostic list, the offending value), for callers that want more than the message. */
  readonly details: unknown;

  constructor(code: Code, message: string, options: SkilldexErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }

  /** The line a person or an agent reads: the message and, where it is stable public vocabulary, the code. */
  get headline(): string {
    return `${this.message} [${this.code}]`;
  }
}

export interface SkilldexErrorOptions {
  hint?: string | undefined;
  details?: unknown;
  cause?: unknown;
}

/**
 * What a failure says, whoever shows it: the CLI, the MCP server's tool results and its log.
 * `known` is false for anything that is not a {@link SkilldexError}: a bug, whose message is all
 * there is to say.
 *
 * @example
 * const { text, hint } = describeFailure(error); // 'no skill named "nope" [SKILL_NOT_FOUND]', 'did you mean …'
 */
export function describeFailure(error: unknown): { text: string; hint: string | undefined; known: boolean } {
  if (error instanceof SkilldexError) return { text: error.headline, hint: error.hint, known: true };
  return { text: error instanceof Error ? error.message : String(error), hint: undefined, known: false };
}
