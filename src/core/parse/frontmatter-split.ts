/**
 * Finding a Markdown file's frontmatter block without parsing it: the scanner and the "Used by"
 * references need only where the body starts, not the YAML library the parser is built on.
 */

const OPEN = /^---([^\r\n]*)\r?\n/;
const CLOSE = /^---[ \t]*\r?$/m;

/** Where a Markdown file's frontmatter block lies, found without parsing the YAML. */
export type FrontmatterSplit =
  | { kind: 'missing' }
  | { kind: 'language'; language: string }
  | { kind: 'unclosed' }
  | {
      kind: 'yaml';
      /** Offset of the first YAML character (after the opening line). */
      yamlStart: number;
      /** Offset of the closing `---` line. */
      closeStart: number;
      /** Offset of the Markdown body. */
      bodyOffset: number;
    };

/**
 * Splits off the frontmatter: an opening `---` line (optionally `---yaml`), and a closing line
 * holding only `---`; a `---` inside a value does not close it. Shared by the validator and the
 * security scanner, so both agree on where the body starts.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const open = OPEN.exec(text);
  if (!open) return { kind: 'missing' };
  const language = (open[1] ?? '').trim();
  if (language !== '' && language !== 'yaml') return { kind: 'language', language };
  const yamlStart = open[0].length;
  const close = CLOSE.exec(text.slice(yamlStart));
  if (!close) return { kind: 'unclosed' };
  const closeStart = yamlStart + close.index;
  const afterClose = closeStart + close[0].length;
  const bodyOffset = text.startsWith('\n', afterClose) ? afterClose + 1 : text.startsWith('\r\n', afterClose) ? afterClose + 2 : afterClose;
  return { kind: 'yaml', yamlStart, closeStart, bodyOffset };
}
