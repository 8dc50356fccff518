import { forEachMatch } from '../document.ts';
import { defineRule, type TextCheck } from '../rule.ts';

export const svgActiveContent = defineRule({
  id: 'svg/active-content',
  severity: 'high',
  title: 'SVG image contains script',
  explanation:
    'An SVG is a document, not just a picture: `<script>`, `on…=` event handlers, `javascript:` links, ' +
    '`<foreignObject>` or embedded HTML run code when the image is opened directly or inlined in a page.',
  fix: 'Export the SVG without scripts and event handlers (e.g. `svgo` with default settings), or ship a PNG.',
});

const ACTIVE: readonly RegExp[] = [
  /<script\b/gi,
  /<(?:[\w:-]{1,40})\s[^<>]{0,2000}?\bon[a-z]{3,30}\s*=/gi,
  /\bjavascript\s*:/gi,
  /<foreignObject\b/gi,
  /<(?:iframe|embed|object)\b/gi,
  /\b(?:xlink:)?href\s*=\s*["']\s*data:(?:text\/html|application\/(?:x-)?javascript|image\/svg\+xml)/gi,
];

export const checkSvgActiveContent: TextCheck = (file, emit) => {
  // Inline SVG also appears inside other text files; only real .svg assets are rendered as images.
  if (file.kind !== 'svg' && !/^\s*(?:<\?xml[^>]{0,200}>\s*)?<svg\b/i.test(file.text.slice(0, 512))) return;
  for (const re of ACTIVE) {
    forEachMatch(re, file.text, (m) => {
      // Point at the handler itself rather than at the start of its element.
      const handler = /\bon[a-z]{3,30}\s*=$/i.exec(m[0]);
      const at = handler ? m.index + handler.index : m.index;
      emit({ rule: svgActiveContent, offset: at, evidence: file.text.slice(at, at + 120).split('\n')[0]! });
    });
  }
};
