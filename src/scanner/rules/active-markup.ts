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
    'opened directly. A registry serves every file of a skill from its own origin, so such a file is active content ' +
    'on the catalog site unless the host serves it inert.',
  hint: 'Remove scripts and event handlers from the file, or ship it as plain text or Markdown. If an agent needs the ' +
    'page as a template, keep it under `assets/` without script and have the agent add behaviour itself.',
  check(file, report) {
    if (markupOf(file) === 'html') reportActive(file, report);
  },
});

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
}
