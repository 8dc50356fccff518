/**
 * Reading a skill's CHANGELOG.md: the section that describes each version. Pure and
 * browser-safe; the build publishes the sections in each skill's versions document.
 */
import { atxHeading } from './parse/atx-heading.ts';

/** `1.2.0`, `v1.2.0`, `[1.2.0]`, `[v1.2.0] - 2026-01-02`, `Version 1.2.0 (2026-01-02)`: the version, then nothing or a separator. */
const VERSION_HEADING = /^(?:version\s+)?\[?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)\]?(?=$|[\s:(–—-])/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The sections of a changelog by version, in the "Keep a Changelog" style and its common
 * variants: a heading (any level) that starts with the version — `## 1.2.0`, `## [1.2.0] - 2026-01-02`,
 * `## v1.2.0` — holds everything up to the next heading of the same or a higher level. Headings
 * inside fenced code do not count. Keys drop a leading `v` and build metadata, as semver
 * precedence does; the first section for a version wins. Sections are trimmed; empty ones are left out.
 *
 * @example
 * changelogSections('# Changelog\n\n## [1.1.0] - 2026-02-01\n- Faster.\n\n## 1.0.0\n- First.\n');
 * // Map { '1.1.0' => '- Faster.', '1.0.0' => '- First.' }
 */
export function changelogSections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  const lines = markdown.replace(/^\uFEFF/, '').split(/\r?\n/);
  let fence: string | undefined;
  let open: { version: string; level: number; from: number } | undefined;
  const close = (to: number) => {
    if (!open) return;
    const text = lines.slice(open.from, to).join('\n').trim();
    if (text && !sections.has(open.version)) sections.set(open.version, text);
    open = undefined;
  };
  for (const [i, line] of lines.entries()) {
    const fenced = FENCE.exec(line);
    if (fenced) {
      const marker = fenced[1] as string;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = atxHeading(line);
    if (!heading) continue;
    const { level } = heading;
    if (open && level <= open.level) close(i);
    const version = VERSION_HEADING.exec(heading.text)?.[1];
    if (version && !open) open = { version: versionKey(version), level, from: i + 1 };
  }
  close(lines.length);
  return sections;
}

/** The key a version's changelog section is found under: no leading `v` or `=`, no build metadata. */
export function versionKey(version: string): string {
  const bare = version.trim().replace(/^[v=]+/i, '');
  // Not `.replace(/\+.*$/, '')`: that tries every `+` of a long run to the end of the text.
  const plus = bare.indexOf('+');
  return plus === -1 ? bare : bare.slice(0, plus);
}
