/**
 * A skill document to render (SKILL.md's body, a prompt, a `references/*.md` file) and the key its
 * HTML is cached under. The key is a digest of everything the HTML depends on: the Markdown
 * itself and every render option (the skill's file URL, which holds the site's base path and the
 * skill's name; the pages its links resolve to; heading levels), under the renderer's
 * fingerprint (./fingerprint.ts). Rendering is a pure function of exactly these, so two documents
 * with one key render to the same bytes, and changing any input changes the key.
 */
import { createHash } from 'node:crypto';
import type { RenderOptions } from '../catalog/markdown.ts';

/**
 * The options a skill document renders with. Trusted documents (the project's own docs, which get
 * heading ids and links to other docs pages) are rendered directly and never cached: their HTML
 * is not what the cache's check accepts (./verify.ts).
 */
export type SkillDocumentOptions = Omit<RenderOptions, 'headingIds' | 'markdownPages' | 'siteBase'>;

export interface SkillDocument {
  markdown: string;
  options: SkillDocumentOptions;
}

/** Bump when the key's recipe changes. */
const KEY_FORMAT = 1;

/** The cache key of `document`, rendered by the renderer with `fingerprint`: 64 hex digits. */
export function documentKey(fingerprint: string, document: SkillDocument): string {
  const text = createHash('sha256').update(document.markdown).digest('hex');
  return createHash('sha256').update(canonicalJson([KEY_FORMAT, fingerprint, text, document.options])).digest('hex');
}

/** JSON with object keys sorted, so options built in any order key alike. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
