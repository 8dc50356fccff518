import { titleFromName } from '../core/names.ts';
import { atxHeading } from '../core/parse/atx-heading.ts';
import type { SkillAction, SkillEntry } from '../core/schemas/manifest.ts';
import { type DraftManifest, entryCandidates, normaliseResourcePath, type SkillSource } from './model.ts';
import { treeDigestSync } from './hash.ts';
import type { ParsedSkillJson, ParsedSkillMd } from './rules/check-skill.ts';
import { EXPORTS_EXECUTE, SCRIPT_LANGUAGES } from '../core/script-language.ts';
import { extensionOf } from '../scanner/magic.ts';
import { skillUrls } from './emit/layout.ts';
import { DEFAULT_TIMEOUT_MS } from '../core/schemas/run-limits.ts';



function entryFor(src: SkillSource, path: string | undefined): SkillEntry | undefined {
  if (!path) return undefined;
  const file = src.files.find((f) => f.path === path);
  const language = SCRIPT_LANGUAGES[extensionOf(path)];
  if (!file || !language) return undefined;
  const isModule = (language === 'typescript' || language === 'javascript') && EXPORTS_EXECUTE.test(new TextDecoder().decode(file.bytes));
  return { path, runner: isModule ? 'module' : 'protocol', language };
}

/** `skill:<name>:<script>` for each program under scripts/ (index.json `tools`). */
function toolsOf(name: string, src: SkillSource): string[] {
  return src.files
    .filter((f) => f.path.startsWith('scripts/') && SCRIPT_LANGUAGES[extensionOf(f.path)] && !f.path.slice(8).includes('/'))
    .map((f) => `skill:${name}:${f.path.slice(8).replace(/\.[^.]+$/, '')}`);
}

/**
 * `allowed-tools` is a space-separated list, but a tool's pattern may hold spaces of its own:
 * `Bash(git diff:*) Read` is two tools, `Bash(git diff:*)` and `Read`. Spaces split only outside
 * parentheses.
 *
 * @example
 * splitAllowedTools('Bash(git diff:*) Bash(git log:*) Read'); // ['Bash(git diff:*)', 'Bash(git log:*)', 'Read']
 */
export function splitAllowedTools(text: string): string[] {
  const tools: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    else if (ch === ')' && depth > 0) depth -= 1;
    if (depth === 0 && /\s/.test(ch)) {
      if (current) tools.push(current);
      current = '';
    } else current += ch;
  }
  if (current) tools.push(current);
  return tools;
}

/**
 * The text of the body's first top-level heading (`# Title`, at the start of a line). Lines are
 * found with a pattern that cannot backtrack and read with {@link atxHeading}: the single pattern
 * before (`^#[ \t]+(.+?)[ \t#]*$`) was quadratic in a heading line of spaces, minutes for a
 * megabyte of them in a pull request's SKILL.md.
 */
function firstHeading(markdown: string): string | undefined {
  for (const { index: start } of markdown.matchAll(/^#[ \t]/gm)) {
    const end = markdown.indexOf('\n', start);
    const text = atxHeading(markdown.slice(start, end === -1 ? undefined : end).replace(/\r$/, ''))?.text;
    if (text) return text;
  }
  return undefined;
}

/** Category from a `skills/<category>/<name>` layout. */
function folderCategory(src: SkillSource): string | undefined {
  const parts = src.dir.split('/');
  return parts.length >= 3 ? parts[parts.length - 2] : undefined;
}

function actionsOf(list: readonly (string | { name: string; description?: string | undefined })[] | undefined): SkillAction[] | undefined {
  if (!list) return undefined;
  return list.map((a) => (typeof a === 'string' ? { name: a } : { name: a.name, ...(a.description ? { description: a.description } : {}) }));
}

const MAPPED_FRONTMATTER = new Set([
  'name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools', 'displayName', 'version', 'type', 'capabilities', 'tags',
  'triggers', 'domain', 'category', 'keywords', 'input_schema', 'output_schema', 'abp', 'security', 'resources', 'cacheable', 'ttl',
  'author', 'actions',
]);

function common(src: SkillSource, name: string) {
  const files = src.files.map((f) => ({ path: f.path, size: f.size, digest: `sha256:${f.hex}` }));
  const digest = treeDigestSync(src.files.map((f) => ({ path: f.path, hex: f.hex })));
  return { files, digest, urls: skillUrls(name, digest), sourcePath: src.dir };
}

/** SKILL.md (plain or extended package) → manifest. */
export function manifestFromSkillMd(src: SkillSource, parsed: ParsedSkillMd): DraftManifest {
  const fm = parsed.frontmatter;
  const name = fm.name;
  const metadata = fm.metadata;
  const metaString = (key: string) => (metadata && typeof metadata[key] === 'string' ? (metadata[key] as string) : undefined);
  const declaredEntry = fm.resources?.entry ? normaliseResourcePath(fm.resources.entry) : undefined;
  // An extended package names its entry in resources.entry only when scripts/ offers
  // several; a single program there is the entry. Plain skills' scripts are tools, not entries.
  const candidates = entryCandidates(src);
  const entry = entryFor(src, declaredEntry ?? (parsed.isPackage && candidates.length === 1 ? candidates[0] : undefined));
  const allowed = fm['allowed-tools'];
  const extra = Object.fromEntries(Object.entries(fm).filter(([k]) => !MAPPED_FRONTMATTER.has(k)));
  const { files, digest, urls, sourcePath } = common(src, name);
  return {
    name,
    title: fm.displayName ?? firstHeading(parsed.body) ?? titleFromName(name),
    description: fm.description,
    version: fm.version ?? metaString('version') ?? '1.0.0',
    format: parsed.isPackage ? 'package' : 'skill-md',
    mode: entry ? 'code' : 'instructions',
    ...(fm.type ? { type: fm.type } : {}),
    ...optional('category', fm.category ?? folderCategory(src)),
    tags: fm.tags ?? [],
    keywords: fm.keywords ?? [],
    ...optional('author', fm.author ?? metaString('author')),
    ...optional('license', fm.license),
    ...optional('compatibility', fm.compatibility),
    ...(allowed !== undefined ? { allowedTools: typeof allowed === 'string' ? splitAllowedTools(allowed) : allowed } : {}),
    sourcePath,
    sourceFile: 'SKILL.md',
    hasSkillMd: true,
    ...optional('inputSchema', fm.input_schema),
    ...optional('outputSchema', fm.output_schema),
    ...optional('entry', entry),
    ...optional('actions', actionsOf(fm.actions)),
    instructions: parsed.body,
    calls: [],
    timeoutMs: fm.security?.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    retry: 0,
    tools: toolsOf(name, src),
    ...optional('triggers', fm.triggers),
    ...optional('security', fm.security),
    ...optional('resources', fm.resources),
    ...optional('abp', fm.abp),
    ...optional('capabilities', fm.capabilities),
    ...optional('domain', fm.domain),
    ...optional('cacheable', fm.cacheable),
    ...optional('ttl', fm.ttl),
    ...optional('metadata', metadata),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
    files,
    digest,
    urls,
  };
}

/** skill.json → manifest. */
export function manifestFromSkillJson(src: SkillSource, parsed: ParsedSkillJson): DraftManifest {
  const m = parsed.manifest;
  const moduleFile = src.files.find((f) => f.path === 'index.ts') ? 'index.ts' : src.files.find((f) => f.path === 'index.js') ? 'index.js' : undefined;
  const entry = m.mode === 'code' || (m.mode === 'composite' && !m.pipeline) ? entryFor(src, moduleFile) : undefined;
  const { files, digest, urls, sourcePath } = common(src, m.name);
  return {
    name: m.name,
    title: titleFromName(m.name),
    description: m.description,
    version: m.version,
    format: 'skill-json',
    mode: m.mode,
    ...optional('category', m.category || folderCategory(src)),
    tags: m.tags,
    keywords: [],
    ...optional('author', m.author),
    sourcePath,
    sourceFile: 'skill.json',
    hasSkillMd: false,
    inputSchema: m.input,
    outputSchema: m.output,
    ...optional('entry', entry),
    ...optional('prompt', parsed.prompt),
    calls: m.calls,
    ...optional('pipeline', m.pipeline),
    ...optional('outputMapping', m.outputMapping),
    timeoutMs: Math.max(1, Math.round(m.timeout)),
    retry: Math.max(0, Math.round(m.retry)),
    tools: toolsOf(m.name, src),
    files,
    digest,
    urls,
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
