/**
 * Static SVG badges (the flat two-part shape README badges use), written once per skill at build
 * time so a README can show a skill's version and scan verdict without a badge service. Text comes
 * from the registry (a version string is the author's), so it is XML-escaped, stripped of control
 * characters and capped; widths are estimated from character classes, so the same text always gives
 * the same bytes.
 */

export type BadgeColor = 'blue' | 'green' | 'yellow' | 'red' | 'grey';

const FILL: Record<BadgeColor, string> = { blue: '#0b62c4', green: '#1a7f37', yellow: '#9a6700', red: '#cf222e', grey: '#57606a' };

/** What a scan verdict looks like on a badge. */
export const VERDICT_COLOR: Record<string, BadgeColor> = { pass: 'green', review: 'yellow', warn: 'yellow', fail: 'red' };

const MAX_TEXT = 40;

const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);

/** Printable text only, at most MAX_TEXT characters. */
function clean(text: string): string {
  const printable = [...text.replace(/[\p{Cc}\p{Cf}]/gu, '')];
  return printable.length > MAX_TEXT ? `${printable.slice(0, MAX_TEXT - 1).join('')}…` : printable.join('');
}

/** Width in px of text in 11px Verdana, near enough: narrow, wide and full-width characters differ. */
function textWidth(text: string): number {
  let width = 0;
  for (const c of text) width += /[\u1100-\uffff]/.test(c) ? 11 : /[ijlt.,:;|!'I1 ]/.test(c) ? 4 : /[mwMW@]/.test(c) ? 10 : 7;
  return width;
}

export function badgeSvg(label: string, value: string, color: BadgeColor): string {
  const l = clean(label);
  const v = clean(value);
  const lw = textWidth(l) + 12;
  const vw = textWidth(v) + 12;
  const w = lw + vw;
  const title = escapeXml(`${l}: ${v}`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    `<rect width="${lw}" height="20" fill="#555"/>`,
    `<rect x="${lw}" width="${vw}" height="20" fill="${FILL[color]}"/>`,
    `<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">`,
    `<text x="${lw / 2}" y="14">${escapeXml(l)}</text>`,
    `<text x="${lw + vw / 2}" y="14">${escapeXml(v)}</text>`,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}

/** The badges a skill has, by file name under its page's folder. */
export function skillBadges(skill: { version: string; verdict?: string }): { file: string; alt: string; svg: string }[] {
  return [
    { file: 'version.svg', alt: `version ${clean(skill.version)}`, svg: badgeSvg('skill', `v${skill.version}`, 'blue') },
    { file: 'scan.svg', alt: `security scan: ${skill.verdict ?? 'not scanned'}`, svg: badgeSvg('scan', skill.verdict ?? 'not scanned', VERDICT_COLOR[skill.verdict ?? ''] ?? 'grey') },
  ];
}
