/**
 * Control characters in text a registry publishes. A terminal acts on them: ESC starts sequences
 * that recolour, move the cursor, set the window title or (OSC 52) write the clipboard, and a lone
 * CR lets later text overwrite earlier text. Tab and line feed are ordinary text.
 */

/** A code point as Unicode writes it: `U+001B`. */
export const codePointLabel = (codePoint: number): string => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

/** C0 controls except tab and line feed, DEL, and the C1 controls (U+0080–U+009F; U+009B is CSI). */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * What a terminal must not be handed: the control characters; the bidirectional overrides,
 * isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F), which reorder the rest of the
 * line so that a name or a command reads differently from what it is; and the characters that
 * show nothing at all, so text can hide behind them: the zero-width space and word joiners
 * (U+200B, U+2060–U+2064), the byte order mark, the line and paragraph separators (U+2028,
 * U+2029) and the tag characters (U+E0000–U+E007F, which spell out ASCII no one sees). The
 * zero-width joiner and non-joiner stay: emoji sequences and several scripts need them.
 */
const TERMINAL_UNSAFE = new RegExp(`${CONTROL_CHARS.source}|[\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]`, 'gu');

/** `\u0085`, or `\u{e0041}` past the Basic Multilingual Plane. */
const escaped = (c: string): string => {
  const code = c.codePointAt(0) as number;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * Makes every control and invisible character visible before text reaches a terminal: C0
 * controls become their Unicode control pictures (ESC → ␛, NUL → ␀), DEL becomes ␡, and the rest
 * `\u0085`-style escapes. A CR directly before a LF is kept, so CRLF text still prints as lines.
 *
 * @example
 * visibleControls('ok\u001b]0;pwned\u0007'); // 'ok␛]0;pwned␇'
 */
export function visibleControls(text: string): string {
  return text.replace(TERMINAL_UNSAFE, (c, offset: number) => {
    const code = c.charCodeAt(0);
    if (code === 0x0d && text.charCodeAt(offset + 1) === 0x0a) return c;
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return escaped(c);
  });
}

/**
 * JSON text with the same characters written as `\u` escapes, so it says exactly what it said
 * (every parser reads the escape back as the character) without handing a terminal that shows it
 * a control sequence or hidden text. JSON.stringify escapes only the C0 controls.
 *
 * @example
 * escapedJson(JSON.stringify('a\u202eb')); // '"a\\u202eb"'
 */
export function escapedJson(json: string): string {
  return json.replace(TERMINAL_UNSAFE, (c) => {
    let out = '';
    for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
