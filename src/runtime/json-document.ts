import { visibleControls } from '../core/control-chars.ts';
import { bracketDepthExceeds, MAX_JSON_DEPTH } from '../core/json-depth.ts';
import { RegistryError, type RegistryErrorCode } from '../core/errors/registry-error.ts';

const decoder = new TextDecoder();
const MAINTAINERS = 'report it to the registry maintainers';

/**
 * Parses a JSON document a registry served. Nesting is counted before parsing and refused past
 * {@link MAX_JSON_DEPTH}: schema checks, prompt rendering and `JSON.stringify` recurse per level,
 * and a manifest nested 100,000 deep would otherwise end in a RangeError instead of an error
 * naming the document. `hint` is for text that is not JSON at all (a page served where the
 * document should be); a document nested too deep always gets the maintainers' hint.
 *
 * @example
 * parseJsonDocument(bytes, 'https://skills.example.org/index.json', 'INDEX_INVALID');
 */
export function parseJsonDocument(bytes: Uint8Array, where: string, code: RegistryErrorCode, hint = MAINTAINERS): unknown {
  const text = decoder.decode(bytes);
  const deep = bracketDepthExceeds(text, MAX_JSON_DEPTH);
  if (deep !== undefined) {
    throw new RegistryError(code, `${where}: JSON nests deeper than ${MAX_JSON_DEPTH} levels (at offset ${deep})`, { hint: MAINTAINERS });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    // The parser quotes the text around the error, and that text is the registry's: shown raw, an
    // ESC in it would reach the terminal as a command (set the title, write the clipboard).
    throw new RegistryError(code, `${where} is not JSON (${visibleControls((error as Error).message)})`, { cause: error, hint });
  }
}
