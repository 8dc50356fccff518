import { ReferenceKind, type SkillUser } from '../core/schemas/manifest.ts';
import { resolveSegments } from '../core/paths.ts';
import { createTextFile, lineOf } from '../scanner/document.ts';
import { extensionOf } from '../scanner/magic.ts';
import type { DraftManifest, SkillSource } from './model.ts';

/**
 * "Used by": every way one skill of the registry refers to another. Two steps, so the build
 * cache can stand in for the first:
 *
 * - {@link markdownReferences}, per skill while it is parsed: the tool ids and relative links its
 *   Markdown holds. Skill text is hostile, so this only reads bounded prefixes of the Markdown
 *   files, scans each line once with no backtracking pattern, and resolves links as strings:
 *   nothing is read from disk, followed or run.
 * - {@link usersOf}, across the registry: those references plus `calls`, pipeline steps and
 *   dependency fields, kept only when they name another skill that is in the registry.
 */

/** The tool ids and links a skill's Markdown holds (see {@link markdownReferences}). */
export interface TextReferences {
  /** Skill names from `skill:<name>:<tool>` ids, sorted, without the skill's own. */
  toolIds: string[];
  /**
   * Link targets in other skills' folders: paths from the registry root (`skills/dev/semver-tool/SKILL.md`),
   * sorted, resolved like a browser resolves a relative URL and kept only below the skills folder.
   */
  links: string[];
}

/** Markdown read per file; a longer file's tail is not looked at (an ordinary SKILL.md is under 20 kB). */
export const MAX_MARKDOWN_CHARS = 256 * 1024;
/** Markdown read per skill over all its files. */
export const MAX_SKILL_MARKDOWN_CHARS = 1024 * 1024;
/** Distinct names, and distinct link targets, kept per skill. */
export const MAX_REFERENCES = 256;
/** A link destination longer than this is not a path to a skill's file. */
const MAX_DESTINATION = 1024;

const MARKDOWN = new Set(['md', 'markdown']);

/** A link in a skill's Markdown to a place below the skills folder outside the skill's own folder. */
export interface OutwardLink {
  /** The Markdown file, inside the skill (`SKILL.md`, `references/guide.md`). */
  file: string;
  line: number;
  column: number;
  /** The destination as written (`../semver-tool/SKILL.md`). */
  destination: string;
  /** Where it resolves, from the registry root (`skills/dev/semver-tool/SKILL.md`). */
  target: string;
}

/** What a skill's Markdown says about other skills, read in one pass (see {@link markdownReferences}). */
export interface MarkdownReferences {
  /** For "Used by". */
  references: TextReferences;
  /**
   * Every link that leaves the skill's folder for another place below the skills folder, other
   * than a folder the skill itself is in (`..`, which is always there), with where it is written,
   * in path order: what the registry-wide link rule checks against the other skills. At most
   * {@link MAX_REFERENCES}.
   */
  outwardLinks: OutwardLink[];
}

/**
 * Tool ids and links in a skill's Markdown files (SKILL.md, prompt.md, references/…), in path
 * order. A tool id counts anywhere, code blocks included: that is where an instruction to run
 * `skill:<name>:<tool>` is usually written. A link counts only where Markdown makes it a link,
 * so not inside a code block or a code span.
 *
 * A link out of the skill's folder needs `../` (or percent-encoded dots or slashes) and a tool id
 * needs `skill:`, so a file with neither is passed over without being decoded: most are, and
 * `skilldex validate` reads every skill.
 *
 * @example
 * markdownReferences(source, 'conventional-commits', 'skills')
 * // { references: { toolIds: ['semver-tool'], links: ['skills/dev/semver-tool/SKILL.md'] },
 * //   outwardLinks: [{ file: 'SKILL.md', line: 17, column: 22, destination: '../semver-tool/SKILL.md', target: 'skills/dev/semver-tool/SKILL.md' }] }
 */
export function markdownReferences(source: SkillSource, name: string, skillsDir: string): MarkdownReferences {
  const toolIds = new Set<string>();
  const links = new Set<string>();
  const outward: OutwardLink[] = [];
  const root = skillsDir.replace(/\/+$/, '');
  const own = `${source.dir}/`;
  let budget = MAX_SKILL_MARKDOWN_CHARS;
  const decoder = new TextDecoder();
  for (const file of [...source.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (budget <= 0) break;
    if (!MARKDOWN.has(extensionOf(file.path))) continue;
    const take = Math.min(budget, MAX_MARKDOWN_CHARS);
    // Decoding only the prefix keeps a huge file from costing its whole size.
    const bytes = file.bytes.subarray(0, take * 4);
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const mayLeave = mayLeaveFolder(view);
    const mayName = view.includes('skill:');
    // A file passed over counts its bytes against the budget, at least what decoding it would have.
    if (!mayLeave && !mayName) {
      budget -= Math.min(take, bytes.length);
      continue;
    }
    const text = decoder.decode(bytes).slice(0, take);
    budget -= text.length;
    if (mayName) for (const n of toolIdNames(text)) if (n !== name && toolIds.size < MAX_REFERENCES) toolIds.add(n);
    if (!mayLeave) continue;
    const base = [...source.dir.split('/'), ...file.path.split('/').slice(0, -1)];
    for (const { destination, line, column } of linksIn(file.path, text)) {
      const target = resolveLink(destination, base, root);
      if (!target || target.startsWith(own) || target === source.dir) continue;
      if (links.size < MAX_REFERENCES) links.add(target);
      if (!own.startsWith(`${target}/`) && outward.length < MAX_REFERENCES) outward.push({ file: file.path, line, column, destination, target });
    }
  }
  return { references: { toolIds: [...toolIds].sort(), links: [...links].sort() }, outwardLinks: outward };
}

/** Whether bytes hold `../` or percent-encoding that may stand for it (`%2e`, `..%2f`), which a link into another folder needs. */
function mayLeaveFolder(view: Buffer): boolean {
  return view.includes('../') || view.includes('..%2') || view.includes('%2e') || view.includes('%2E');
}

const isNameChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 /* - */ || c === 95; /* _ */
const isToolChar = (c: number): boolean => isNameChar(c) || c === 46; /* . */

/** The `<name>` of every `skill:<name>:<tool>` in `text` that is not the tail of a longer word. */
export function toolIdNames(text: string): string[] {
  const names: string[] = [];
  for (let at = text.indexOf('skill:'); at !== -1; at = text.indexOf('skill:', at + 6)) {
    if (at > 0 && isNameChar(text.charCodeAt(at - 1))) continue;
    let end = at + 6;
    while (end < text.length && end - at - 6 <= 64 && isNameChar(text.charCodeAt(end))) end++;
    const length = end - at - 6;
    if (length === 0 || length > 64 || text.charCodeAt(end) !== 58 /* : */ || !isToolChar(text.charCodeAt(end + 1))) continue;
    names.push(text.slice(at + 6, end));
  }
  return names;
}

/**
 * The destinations of the inline links (`[text](dest)`, images too) and link reference
 * definitions (`[label]: dest`) of a Markdown text, skipping YAML frontmatter, fenced code blocks
 * and code spans. Each line is scanned once.
 */
export function linkDestinations(path: string, text: string): string[] {
  return linksIn(path, text).map((link) => link.destination);
}

/** Each link destination of {@link linkDestinations} with its 1-based line and column (where the destination starts) in the file. */
export function linksIn(path: string, text: string, lineStarts?: readonly number[]): { destination: string; line: number; column: number }[] {
  const file = createTextFile(path, text, lineStarts);
  const out: { destination: string; line: number; column: number }[] = [];
  // Most lines hold no link: only those with `](` or opening with `[` (a definition) are cut out
  // and cleared of code spans. The next `](` is found once for all the lines before it.
  let nextInline = 0; // where the next `](` is, at or after the line being read; -1 when none is left
  for (let i = file.frontmatterLines; i < file.lineStarts.length; i++) {
    if (file.fenced[i]) continue;
    const start = file.lineStarts[i] as number;
    const lineEnd = i + 1 < file.lineStarts.length ? (file.lineStarts[i + 1] as number) : text.length;
    if (nextInline !== -1 && nextInline < start) nextInline = text.indexOf('](', start);
    const inline = nextInline !== -1 && nextInline < lineEnd;
    if (!inline && !mayOpenDefinition(text, start)) continue;
    const line = withoutCodeSpans(lineOf(file, i));
    const definition = /^ {0,3}\[[^\]]{1,999}\]:[ \t]*(\S+)/.exec(line);
    if (definition) out.push({ destination: unbracket(definition[1] as string), line: i + 1, column: definition[0].length - (definition[1] as string).length + 1 });
    // The search resumes after each destination, so every character is read once.
    for (let at = line.indexOf(']('); at !== -1; ) {
      const { destination, start, end } = destinationAt(line, at + 2);
      if (destination) out.push({ destination, line: i + 1, column: start + 1 });
      at = line.indexOf('](', end);
    }
  }
  return out;
}

/** Whether the line at `start` may open a link reference definition (`[label]: destination`): `[` after up to three spaces. */
function mayOpenDefinition(text: string, start: number): boolean {
  let at = start;
  while (at < start + 3 && text.charCodeAt(at) === 32) at++;
  return text.charCodeAt(at) === 91; /* [ */
}

/** `<dest>` → `dest`. */
const unbracket = (d: string): string => (d.startsWith('<') ? d.slice(1, d.indexOf('>') === -1 ? undefined : d.indexOf('>')) : d);

/**
 * The link destination starting at `from` (after `](`): `<…>`, or up to a space or `)`; none when
 * empty or longer than {@link MAX_DESTINATION}. `start` is where it begins (inside `<`), `end`
 * where reading stopped.
 */
function destinationAt(line: string, from: number): { destination?: string; start: number; end: number } {
  let i = from;
  while (line[i] === ' ' || line[i] === '\t') i++;
  const angled = line[i] === '<';
  const start = angled ? i + 1 : i;
  let end = start;
  while (end < line.length && end - start <= MAX_DESTINATION) {
    const c = line[end];
    if (angled ? c === '>' : c === ' ' || c === '\t' || c === ')') break;
    end++;
  }
  return end > start && end - start <= MAX_DESTINATION ? { destination: line.slice(start, end), start, end } : { start, end: Math.max(end, from) };
}

/**
 * The line with its code spans blanked out (spaces of the same length, so columns still count
 * from the line's start). Backtick runs are paired in one pass: an opening run
 * closes at the next run of the same length (CommonMark), found through a pointer per length
 * that only moves forward, so a line of unmatched runs stays linear.
 */
export function withoutCodeSpans(line: string): string {
  if (!line.includes('`')) return line;
  const runs: { start: number; length: number }[] = [];
  for (let i = 0; i < line.length; ) {
    if (line[i] !== '`') {
      i++;
      continue;
    }
    const start = i;
    while (line[i] === '`') i++;
    runs.push({ start, length: i - start });
  }
  const byLength = new Map<number, number[]>();
  for (const [k, r] of runs.entries()) {
    const list = byLength.get(r.length);
    if (list) list.push(k);
    else byLength.set(r.length, [k]);
  }
  const cursor = new Map<number, number>();
  let out = '';
  let copied = 0;
  for (let k = 0; k < runs.length; ) {
    const open = runs[k] as (typeof runs)[number];
    const same = byLength.get(open.length) as number[];
    let c = cursor.get(open.length) ?? 0;
    while (c < same.length && (same[c] as number) <= k) c++;
    cursor.set(open.length, c);
    if (c === same.length) {
      k++;
      continue;
    }
    const close = runs[same[c] as number] as (typeof runs)[number];
    out += line.slice(copied, open.start) + ' '.repeat(close.start + close.length - open.start);
    copied = close.start + close.length;
    k = (same[c] as number) + 1;
  }
  return out + line.slice(copied);
}

/**
 * A link destination resolved against the linking file's folder (`base`, from the registry
 * root), when it stays below the skills folder `root`; undefined for URLs, absolute paths,
 * anchors, and anything that climbs out.
 */
export function resolveLink(destination: string, base: readonly string[], root: string): string | undefined {
  const path = relativeLinkPath(destination);
  if (path === undefined || /[\\\0]/.test(path)) return undefined;
  const resolved = resolveSegments(base, path)?.join('/');
  return resolved?.startsWith(`${root}/`) ? resolved : undefined;
}

/**
 * The relative file path a link destination names, percent-decoded, without its query and
 * anchor; undefined for a URL, an absolute path or a bare anchor.
 *
 * @example
 * relativeLinkPath('references/a%20b.md#setup') // 'references/a b.md'
 */
export function relativeLinkPath(destination: string): string | undefined {
  const cut = destination.search(/[?#]/);
  const path = cut === -1 ? destination : destination.slice(0, cut);
  if (path === '' || path.startsWith('/') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) return undefined;
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // not percent-encoding after all: the path as written
  }
}

/** The dependency fields of a SKILL.md, top-level or under `metadata`: names separated by spaces or commas, or a list. */
export const DEPENDENCY_FIELDS = ['requires', 'dependencies', 'depends_on'] as const;

/** Names a skill declares it depends on (at most {@link MAX_REFERENCES}). */
export function declaredDependencies(draft: Pick<DraftManifest, 'extra' | 'metadata'>): string[] {
  const names = new Set<string>();
  for (const holder of [draft.extra, draft.metadata]) {
    for (const field of DEPENDENCY_FIELDS) {
      const value = holder && Object.hasOwn(holder, field) ? holder[field] : undefined;
      const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
      for (const item of items.slice(0, MAX_REFERENCES)) {
        for (const token of item.slice(0, 4096).split(/[\s,]+/)) if (token && names.size < MAX_REFERENCES) names.add(token);
      }
    }
  }
  return [...names];
}

/** What {@link usersOf} needs of each skill in the registry. */
export interface ReferringSkill {
  draft: Pick<DraftManifest, 'name' | 'calls' | 'pipeline' | 'extra' | 'metadata' | 'files'>;
  /** Folder from the registry root. */
  dir: string;
  text: TextReferences;
}

/**
 * For each skill, the other skills that refer to it and how: sorted by name, each pair once with
 * its kinds in a fixed order. Names that are not in the registry, and a skill's references to
 * itself, do not count. A link counts when it points at the other skill's folder or at a file or
 * folder it publishes.
 *
 * @example
 * usersOf(skills).get('semver-tool') // [{ name: 'conventional-commits', kinds: ['tool-id', 'link'] }]
 */
export function usersOf(skills: readonly ReferringSkill[]): Map<string, SkillUser[]> {
  const byName = new Map(skills.map((s) => [s.draft.name, s]));
  const byDir = new Map(skills.map((s) => [s.dir, s]));
  const published = new Map<ReferringSkill, Set<string>>();
  /** The skill a link target lies in (the deepest, for nested skills), when the target exists there. */
  const linkedSkill = (target: string): ReferringSkill | undefined => {
    for (let cut = target.length; cut > 0; cut = target.lastIndexOf('/', cut - 1)) {
      const owner = byDir.get(target.slice(0, cut));
      if (!owner) continue;
      let paths = published.get(owner);
      if (!paths) {
        paths = new Set(['']);
        for (const f of owner.draft.files) for (let end = f.path.length; end > 0; end = f.path.lastIndexOf('/', end - 1)) paths.add(f.path.slice(0, end));
        published.set(owner, paths);
      }
      return paths.has(target.slice(cut + 1)) ? owner : undefined;
    }
    return undefined;
  };
  const kinds = new Map<string, Map<string, Set<ReferenceKind>>>();
  const add = (user: string, target: string | undefined, kind: ReferenceKind) => {
    if (target === undefined || target === user || !byName.has(target)) return;
    let users = kinds.get(target);
    if (!users) kinds.set(target, (users = new Map()));
    let set = users.get(user);
    if (!set) users.set(user, (set = new Set()));
    set.add(kind);
  };
  for (const s of skills) {
    const user = s.draft.name;
    for (const callee of s.draft.calls) add(user, callee, 'calls');
    for (const step of s.draft.pipeline ?? []) add(user, step.skill, 'pipeline-step');
    for (const dependency of declaredDependencies(s.draft)) add(user, dependency, 'dependency');
    for (const name of s.text.toolIds) add(user, name, 'tool-id');
    for (const target of s.text.links) add(user, linkedSkill(target)?.draft.name, 'link');
  }
  const out = new Map<string, SkillUser[]>();
  for (const [target, users] of kinds) {
    const list = [...users]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, set]) => ({ name, kinds: ReferenceKind.options.filter((k) => set.has(k)) }));
    out.set(target, list);
  }
  return out;
}
