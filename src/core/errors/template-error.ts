import { SkilldexError } from './skilldex-error.ts';

/**
 * Raised by `renderTemplate` for a template that does not parse; the message quotes the
 * template and the offset where it went wrong.
 *
 * @example
 * throw new TemplateError('{{input.x | nope}}', { message: "unknown filter 'nope'", offset: 11 });
 */
export class TemplateError extends SkilldexError<'TEMPLATE_INVALID'> {
  override name = 'TemplateError';
  readonly offset: number;
  readonly template: string;

  constructor(template: string, error: { message: string; offset: number }) {
    super('TEMPLATE_INVALID', `${error.message} at offset ${error.offset} in template ${JSON.stringify(template)}`, { hint: 'the template language is described in docs/skill-json.md#templates' });
    this.offset = error.offset;
    this.template = template;
  }
}
