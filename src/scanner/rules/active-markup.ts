import { extensionOf } from '../magic.ts';
import { forEachMatch, type SkillTextFile } from '../document.ts';
import { defineRule, type ReportHit } from '../rule.ts';

// Critical, so blocking by default: GitHub Pages serves a skill's files with no way to sandbox
// them, and a script in one runs on the catalog's origin (docs/hosting.md). An author or the
// registry can still answer a finding that is wanted (docs/security.md#answering-a-finding).
export const svgActiveContent = defineRule({
  id: 'svg/active-content',
  severity: 'critical',
  description: 'SVG image contains script',
  explanation:
    'An SVG is a document, not just a picture: `<script>`, `on…=` event handlers, `javascript:` links, ' +
    '`<foreignObject>` or embedded HTML run code when the image is opened directly or inlined in a page.',
  hint: 'Export the SVG without scripts and event handlers (e.g. `svgo` with default settings), or ship a PNG.',
  check(file, report) {
    if (markupOf(file) === 'svg') reportActive(file, report);
  },
});

export const htmlActiveContent = defineRule({
  id: 'html/active-content',
  severity: 'critical',
  description: 'HTML or XML file contains script',
  explanation:
    'A browser runs `<script>`, `on…=` event handlers and `javascript:` links in an HTML, XHTML or XML file that is ' +
    'opened directly, also when a link is written with character references (`&#106;avascript:`, `javascript&colon;`) ' +
    'or split by a tab or a line break, and the script an XSLT stylesheet named by `<?xml-stylesheet?>` writes. ' +
    'A registry serves every file of a skill from its own origin, so such a file is active content on the catalog ' +
    'site unless the host serves it inert.',
  hint: 'Remove scripts and event handlers from the file, or ship it as plain text or Markdown. If an agent needs the ' +
    'page as a template, keep it under `assets/` without script and have the agent add behaviour itself.',
  check(file, report) {
    if (markupOf(file) === 'html') reportActive(file, report);
  },
});

// Critical for the same reason as script: on GitHub Pages the file is a page of the registry's own
// site, so a redirect from it is an open redirect on the registry's name and a sign-in form on it
// a phishing page there.
export const htmlOffSite = defineRule({
  id: 'html/off-site',
  severity: 'critical',
  description: 'HTML file sends the reader, or what they type, to another site',
  explanation:
    'Without any script, an HTML file opened directly can send the reader elsewhere (`<meta http-equiv="refresh" ' +
    'content="0;url=…">`), point every relative link of the page at another site (`<base href="https://…">`), or ' +
    'collect what they type: a form that submits to another site, or any password field. A registry serves every ' +
    'file of a skill from its own origin, so on a host that does not sandbox raw files such a page is a redirect ' +
    'or a sign-in page under the registry\'s name.',
  hint: 'Remove the refresh, the `<base>` element and the form (or its password field) from the file, or ship it as plain ' +
    'text or Markdown. If an agent needs the page as a template, keep the form without an action and have the agent add it.',
  check(file, report) {
    if (markupOf(file) !== 'html') return;
    forEachMatch(OFF_SITE_TAG, file.text, (m) => {
      // Attribute values as the browser reads them: `http-equiv="&#114;efresh"` is a refresh too.
      const tag = decodeReferences(m[0]).replace(/[\t\n\r]/g, ' ');
      const name = m[1]!.toLowerCase();
      const off =
        (name === 'meta' && /\bhttp-equiv\s*=\s*["']?\s*refresh\b/i.test(tag) && /\burl\s*=/i.test(tag)) ||
        (name === 'base' && ELSEWHERE.test(attribute(tag, 'href'))) ||
        (name === 'form' && ELSEWHERE.test(attribute(tag, 'action'))) ||
        (name === 'input' && /^password$/i.test(attribute(tag, 'type').trim()));
      if (off) report({ offset: m.index, evidence: file.text.slice(m.index, m.index + 120).split('\n')[0]! });
    });
  },
});

/** The start tags {@link htmlOffSite} reads, whole (bounded, so a tag that never closes costs linear time). */
const OFF_SITE_TAG = /<(meta|base|form|input)\b[^<>]{0,4000}>?/gi;
/** A URL on another site: with a scheme, or protocol-relative (`//evil.example`, which a browser also reads from `\\`). */
const ELSEWHERE = /^[\x00-\x20]*(?:[a-z][a-z0-9+.-]*:|[/\\]{2})/i;

/** The value of attribute `name` in a start tag, or '' when it has none. */
function attribute(tag: string, name: string): string {
  const m = new RegExp(`[\\s/]${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : '';
}

/** Extensions a browser renders as a document (and so runs script in) when served with their usual type. */
const HTML_EXTENSIONS = new Set(['html', 'htm', 'xhtml', 'xht', 'xml', 'xsl', 'xslt', 'mht', 'mhtml', 'shtml']);

const ACTIVE: readonly RegExp[] = [
  // `<script` and namespaced forms such as `<html:script` (XHTML inside XML).
  /<(?:[\w-]{1,40}:)?script\b/gi,
  /<(?:[\w:-]{1,40})\s[^<>]{0,2000}?\bon[a-z]{3,30}\s*=/gi,
  /\bjavascript\s*:/gi,
  /<foreignObject\b/gi,
  /<(?:iframe|embed|object)\b/gi,
  /\b(?:xlink:)?href\s*=\s*["']\s*data:(?:text\/html|application\/(?:x-)?javascript|image\/svg\+xml)/gi,
  // An XSLT stylesheet the document names is applied when it is opened, and the document it writes
  // runs its script: one spelled from pieces (`<xsl:element name="{concat('scr','ipt')}">`) matches
  // none of the patterns above. Only a CSS stylesheet cannot add script.
  /<\?xml-stylesheet\b(?![^>]{0,2000}?\btype\s*=\s*["']?text\/css\b)/gi,
];

/**
 * Which rule a file answers to: SVG (by extension or by a leading `<svg`), HTML/XML by
 * extension. Other text (Markdown that quotes an element, source code building HTML) is not a
 * document a browser opens, and is left to the other rules.
 */
function markupOf(file: SkillTextFile): 'svg' | 'html' | undefined {
  if (file.kind === 'svg' || /^\s*(?:<\?xml[^>]{0,200}>\s*)?<svg\b/i.test(file.text.slice(0, 512))) return 'svg';
  if (HTML_EXTENSIONS.has(extensionOf(file.path))) return 'html';
  return undefined;
}

function reportActive(file: SkillTextFile, report: ReportHit): void {
  for (const re of ACTIVE) {
    forEachMatch(re, file.text, (m) => {
      // Point at the handler itself rather than at the start of its element.
      const handler = /\bon[a-z]{3,30}\s*=$/i.exec(m[0]);
      const at = handler ? m.index + handler.index : m.index;
      report({ offset: at, evidence: file.text.slice(at, at + 120).split('\n')[0]! });
    });
  }
  // An attribute value as the browser reads it: character references decoded, and tabs and
  // line breaks dropped from a URL. `jav&#x09;ascript:`, `&#106;avascript:` and
  // `javascript&colon;` all run on a click, and none of them matches the patterns above.
  forEachMatch(ATTRIBUTE, file.text, (m) => {
    const raw = m[2] ?? m[3] ?? m[4] ?? '';
    if (!raw.includes('&') && !/[\t\n\r]/.test(raw)) return;
    const value = decodeReferences(raw).replace(/[\t\n\r]/g, '');
    const active = SCRIPT_URL.test(value) || (/^(?:xlink:)?href$/i.test(m[1]!) && /^[\x00-\x20]*data:(?:text\/html|application\/(?:x-)?javascript|image\/svg\+xml)/i.test(value));
    if (active && !SCRIPT_URL.test(raw)) report({ offset: m.index + 1, evidence: file.text.slice(m.index + 1, m.index + 121).split('\n')[0]! });
  });
}

/**
 * An attribute and the start of its value (quoted or not), after a space or a `/` (`<a/href=…>` is an
 * anchor with an href to a browser). A value is read to its closing quote or for 20,000 characters,
 * enough for any number of leading zeros a character reference may have.
 */
const ATTRIBUTE = /[\s/]([\w:.-]{1,60})\s*=\s*(?:"([^"]{0,20000})|'([^']{0,20000})|([^\s"'=<>`]{1,20000}))/g;
/** A URL that runs script when followed, anywhere in a value (a refresh's `0;url=javascript:…` too). */
const SCRIPT_URL = /(?:javascript|vbscript)\s*:/i;

/** Character references as a browser decodes them in an attribute value; of the named ones, only those that spell a scheme. */
function decodeReferences(value: string): string {
  return value.replace(/&#x([0-9a-f]{1,20000});?|&#([0-9]{1,20000});?|&(colon|tab|newline);/gi, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name) return { colon: ':', tab: '\t', newline: '\n' }[name.toLowerCase() as 'colon' | 'tab' | 'newline'];
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    return Number.isSafeInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
