/**
 * Control characters in text a registry publishes. A terminal acts on them: ESC starts sequences
 * that recolour, move the cursor, set the window title or (OSC 52) write the clipboard, and a lone
 * CR lets later text overwrite earlier text. Tab and line feed are ordinary text.
 */

/** C0 controls except tab and line feed, DEL, and the C1 controls (U+0080–U+009F; U+009B is CSI). */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * What a terminal must not be handed: the control characters, and the bidirectional overrides
 * and isolates (U+202A–U+202E, U+2066–U+2069), which reorder the rest of the line so that a name
 * or a command reads differently from what it is.
 */
const TERMINAL_UNSAFE = new RegExp(`${CONTROL_CHARS.source}|[\u202a-\u202e\u2066-\u2069]`, 'g');

/**
 * Makes every control character visible before text reaches a terminal: C0 controls become their
 * Unicode control pictures (ESC → ␛, NUL → ␀), DEL becomes ␡ and C1 controls `\u0085`-style
 * escapes, as do the bidirectional overrides and isolates. A CR directly before a LF is kept, so
 * CRLF text still prints as lines.
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
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
