import { lineIndexAt, type SkillTextFile } from '../document.ts';
import { defineRule, type ReportHit } from '../rule.ts';
import { urlsIn } from './network.ts';

export const prerequisiteLure = defineRule({
  id: 'lure/prerequisite-download',
  severity: 'high',
  description: '"Prerequisites" lure with a download link',
  explanation:
    'The document asks the reader (or the agent) to download an archive or installer before the skill ' +
    'works, under a "Prerequisites"/"Setup"/"Requirements" heading or next to phrasing such as "before ' +
    'using, download and run". This is the ClawHavoc pattern: the skill itself looks harmless and the ' +
    'malware sits in the linked `.zip`/`.exe`/`.dmg`.',
  hint:
    'Put everything the skill needs inside the skill, or name the dependency and its official package ' +
    '(`brew install …`, `pip install …`) instead of linking an archive.',
  quotable: true,
  check: checkPrerequisiteLure,
});

const ARCHIVE = /\.(?:zip|tar\.gz|tgz|tar\.xz|tar\.bz2|tar|7z|rar|exe|msi|dmg|pkg|appimage|deb|rpm|jar|scr|bat|cmd|ps1|vbs|apk|iso|img|run|bin)$/i;
const HEADING = /^ {0,3}#{1,6}\s+(.{0,120})/;
const LURE_HEADING = /prerequisite|requirement|before (?:you )?(?:start|begin|use|using|install)|set ?up|install|getting started|dependenc|first steps|required|download/i;
const LURE_PHRASE =
  /\b(?:prerequisites?|before (?:using|you use|running|you run|use|installing|starting)|must (?:first )?(?:download|install|run)|(?:download|get)\s+(?:and|&|then)\s+(?:run|install|execute|extract|open)|run the (?:installer|setup)|password\s*[:=]|extract (?:it|the archive|the zip)|required (?:helper|component|agent|binary|tool))\b/i;

function checkPrerequisiteLure(file: SkillTextFile, report: ReportHit): void {
  if (file.kind !== 'markdown' && file.kind !== 'text') return;
  let headings: (string | undefined)[] | undefined;
  for (const u of urlsIn(file)) {
    const path = u.path.replace(/[?#].*$/, '');
    if (!ARCHIVE.test(path)) continue;
    headings ??= headingsByLine(file);
    const heading = headings[lineIndexAt(file, u.offset)];
    const near = file.text.slice(Math.max(0, u.offset - 300), u.offset + u.url.length + 200);
    if ((heading !== undefined && LURE_HEADING.test(heading)) || LURE_PHRASE.test(near)) {
      report({ offset: u.offset, evidence: u.url, detail: heading ? `Linked under the heading "${heading.trim()}".` : undefined });
    }
  }
}

/** For each line of a Markdown file, the text of the nearest heading above it (fenced code skipped); one pass. */
function headingsByLine(file: SkillTextFile): (string | undefined)[] {
  const out: (string | undefined)[] = new Array(file.lineStarts.length);
  let current: string | undefined;
  for (let i = 0; i < file.lineStarts.length; i++) {
    if (file.kind === 'markdown' && file.fenced[i] !== 1) {
      const m = HEADING.exec(file.text.slice(file.lineStarts[i], file.lineStarts[i]! + 128));
      if (m) current = m[1]!.split('\n')[0];
    }
    out[i] = current;
  }
  return out;
}
