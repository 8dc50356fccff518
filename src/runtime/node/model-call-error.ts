import { SkilldexError } from '../../core/errors/skilldex-error.ts';

/**
 * A failed model call; the message names the URL and what it answered. `retryable` says
 * whether the same request may succeed next time (the run loop asks again only then).
 *
 * @example
 * throw new ModelCallError('POST http://127.0.0.1:11434/v1/chat/completions answered 503: busy', 503, true);
 */
export class ModelCallError extends SkilldexError<'MODEL_CALL_FAILED'> {
  override name = 'ModelCallError';
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(message: string, status: number | undefined, retryable: boolean) {
    super('MODEL_CALL_FAILED', message, { hint: retryable ? 'the model server may be busy or starting; try again' : 'check the model name, API key and base URL' });
    this.status = status;
    this.retryable = retryable;
  }
}
