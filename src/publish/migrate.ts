import semver from 'semver';
import { parseDocument, stringify } from 'yaml';
import { titleFromName } from '../core/names.ts';
import { Limits } from '../core/schemas/config.ts';
import { KNOWN_FRONTMATTER_FIELDS, PACKAGE_TYPES } from '../core/schemas/skill-md.ts';
import { aliasThatFails, parseFrontmatter, stackExhaustedAt } from '../core/parse/frontmatter.ts';
import { positionAt, sourceFromString, withoutBom } from '../core/parse/source-text.ts';
import { CODE_EXTENSIONS } from '../pipeline/model.ts';
import { extensionOf } from '../scanner/magic.ts';
import { MigrationError } from './migration-error.ts';

/**
 * `skilldex migrate` (docs/extended-package.md#migrating-legacy-packages): a legacy skill — one SKILL.md with TypeScript
 * code blocks, or METADATA.yml plus scripts/main.ts — becomes an extended package: code under
 * scripts/, `resources.entry` filled, `permissions` folded into `security`, and the fields the
 * package format lists as required given sensible defaults. Pure: a plan of file operations; the command
 * carries it out (or only prints it with --dry-run).
 */

export interface LegacySkill {
  folderName: string;
  /** Every file path in the folder, `/`-separated. */
  paths: readonly string[];
  /** Text of the files the migration reads: SKILL.md, METADATA.yml, code. */
  read(path: string): string | undefined;
}

export type MigrationOp =
  | { kind: 'backup'; from: string; to: string }
  | { kind: 'move'; from: string; to: string }
  | { kind: 'delete'; path: string }
  | { kind: 'write'; path: string; content: string };

export interface MigrationPlan {
  status: 'migrate' | 'skip';
  /** Why a skill is skipped. */
  reason?: string;
  ops: MigrationOp[];
  notes: string[];
}


const LIMITS = Limits.parse({});
const METADATA_FILES = ['METADATA.yml', 'METADATA.yaml'];
const DEFAULT_SECURITY = { timeout_ms: 30000, memory_mb: 128, network: 'none', filesystem: 'none' };

/** The placeholder entry when a legacy skill had no code at all. */
const PLACEHOLDER_EXECUTE = `/**
 * Placeholder written by \`skilldex migrate\`: the legacy skill had no code. Implement the skill
 * here, or remove \`resources.entry\` if it is instructions only.
 */
export async function execute(
  parameters: Record<string, unknown>,
  context: Record<string, unknown> = {},
  config: Record<string, unknown> = {},
): Promise<{ output: unknown; format: 'object'; status: 'success' }> {
  return { output: { received: parameters }, format: 'object', status: 'success' };
}
`;

/**
 * Plans the migration of one skill folder.
 *
 * @example
 * planMigration({ folderName: 'x', paths: ['SKILL.md'], read: () => text }, { backup: true })
 */
export function planMigration(skill: LegacySkill, options: { backup?: boolean } = {}): MigrationPlan {
  const backup = options.backup ?? true;
  const notes: string[] = [];
  const ops: MigrationOp[] = [];
  const has = (p: string) => skill.paths.includes(p);
  const metadataFile = METADATA_FILES.find(has);

  // 1. Read what there is: METADATA.yml, SKILL.md frontmatter and body. A byte-order mark would
  // hide the opening `---`, and the frontmatter would be moved into the body.
  const metadata = metadataFile ? readMetadata(metadataFile, withoutBom(skill.read(metadataFile) ?? '')) : {};
  const skillMdText = has('SKILL.md') ? withoutBom(skill.read('SKILL.md') ?? '') : undefined;
  let frontmatter: Record<string, unknown> = {};
  let body = '';
  if (skillMdText !== undefined) {
    if (/^---/.test(skillMdText)) {
      const source = sourceFromString(skillMdText);
      const fm = parseFrontmatter(source, LIMITS);
      const problem = fm.problems[0];
      if (!fm.data) {
        throw new MigrationError('SKILL.md', `SKILL.md frontmatter cannot be read: ${problem?.message ?? 'unknown problem'}`, {
          position: positionAt(source, problem?.offset ?? 0),
          hint: problem?.hint ?? "fix the frontmatter; 'skilldex validate' shows every problem in it",
        });
      }
      frontmatter = fm.data;
      body = fm.body;
    } else body = skillMdText; // legacy files sometimes had no frontmatter at all
  }
  // YAML 1.1 merge keys (`<<: *defaults`), which legacy frontmatter used to share values: the
  // security values they carry must reach the manifest, not be dropped as an unknown key.
  const legacy = withMergeKeysResolved({ ...metadata, ...frontmatter }) as Record<string, unknown>;
  // The files the migration writes keep the line endings the skill was written with: an editor
  // on Windows, or git with core.autocrlf, would otherwise meet a file half CRLF and half LF.
  const eol = lineEndingOf(skillMdText ?? (metadataFile ? skill.read(metadataFile) : undefined) ?? '');
  const inStyle = (content: string) => (eol === '\n' ? content.replace(/\r\n/g, '\n') : content.replace(/\r?\n/g, eol));

  // Only the blocks that define `execute`: an example that calls it stays in the instructions.
  const blocks = typescriptBlocks(body).filter((b) => DEFINES_EXECUTE.test(b.code));
  const rootCode = skill.paths.filter((p) => !p.includes('/') && CODE_EXTENSIONS.has(extensionOf(p)));
  const resources = isRecord(legacy.resources) ? legacy.resources : undefined;
  const isLegacy = metadataFile !== undefined || blocks.length > 0 || legacy.permissions !== undefined || rootCode.length > 0 || (has('scripts/main.ts') && typeof resources?.entry !== 'string');
  if (!isLegacy) {
    return { status: 'skip', reason: resources?.entry ? 'already an extended package (resources.entry is set)' : 'no legacy layout found (no METADATA.yml, code blocks, permissions or scripts/main.ts)', ops: [], notes: [] };
  }

  // 2. Code: extracted blocks → scripts/execute.ts; root-level code → scripts/; else keep what scripts/ has.
  const after = new Set(skill.paths);
  const moveTo = (from: string, to: string) => {
    ops.push({ kind: 'move', from, to });
    after.delete(from);
    after.add(to);
  };
  let entry: string | undefined = typeof resources?.entry === 'string' ? resources.entry.replace(/^\.\//, '') : undefined;
  let newBody = body;
  if (blocks.length > 0) {
    const code = blocks.map((b) => b.code.replace(/\s+$/, '')).join('\n\n');
    const exported = /^\s*export\s+(?:async\s+)?function\s+execute\b|^\s*export\s+(?:const|let)\s+execute\b/m.test(code) ? code : code.replace(/^(\s*)((?:async\s+)?function\s+execute\b)/m, '$1export $2');
    const target = has('scripts/execute.ts') ? 'scripts/execute.extracted.ts' : 'scripts/execute.ts';
    if (target !== 'scripts/execute.ts') notes.push('scripts/execute.ts already exists; the code blocks went to scripts/execute.extracted.ts — merge them by hand');
    ops.push({ kind: 'write', path: target, content: inStyle(`// Extracted from the legacy SKILL.md by skilldex migrate.\n${exported}\n`) });
    after.add(target);
    entry ??= 'scripts/execute.ts';
    // From the last, so the earlier blocks' offsets still hold.
    for (const b of [...blocks].reverse()) newBody = `${newBody.slice(0, b.start)}The implementation lives in [${target}](${target}).${newBody.slice(b.end)}`;
    notes.push(`${blocks.length} TypeScript code block${blocks.length === 1 ? '' : 's'} moved to ${target}`);
  }
  for (const file of rootCode) {
    moveTo(file, `scripts/${file}`);
    notes.push(`${file} moved to scripts/${file} (executable code lives under scripts/); check its relative imports`);
  }
  if (entry === undefined) {
    const programs = [...after].filter((p) => p.startsWith('scripts/') && CODE_EXTENSIONS.has(extensionOf(p))).sort();
    entry = ['scripts/execute.ts', 'scripts/main.ts', 'scripts/index.ts'].find((p) => after.has(p)) ?? (programs.length === 1 ? programs[0] : undefined);
  }
  if (entry === undefined) {
    entry = 'scripts/execute.ts';
    ops.push({ kind: 'write', path: entry, content: inStyle(PLACEHOLDER_EXECUTE) });
    after.add(entry);
    notes.push('no code found: wrote a placeholder scripts/execute.ts');
  }

  // 3. Frontmatter.
  const name = skill.folderName;
  const declared = typeof legacy.name === 'string' ? legacy.name : undefined;
  const displayName = str(legacy.displayName) ?? (declared && declared !== name ? declared : titleFromName(name));
  if (declared !== undefined && declared !== name) notes.push(`name '${declared}' → '${name}' (a SKILL.md name equals its folder); the old name is kept as displayName`);
  const description = (str(legacy.description) ?? firstParagraph(newBody) ?? `${displayName} (migrated from a legacy package: say what it does and when to use it).`).slice(0, 1024);
  if (str(legacy.description) === undefined) notes.push('description was missing: filled from the body; check it');

  let version = str(legacy.version) ?? (typeof legacy.version === 'number' ? String(legacy.version) : undefined);
  if (version === undefined || !semver.valid(version)) {
    const coerced = version !== undefined ? semver.coerce(version)?.version : undefined;
    notes.push(version === undefined ? 'version was missing: set to 1.0.0' : `version '${version}' is not semantic: set to ${coerced ?? '1.0.0'}`);
    version = coerced ?? '1.0.0';
  }
  const type = (PACKAGE_TYPES as readonly string[]).includes(String(legacy.type)) ? String(legacy.type) : 'direct';
  if (legacy.type !== undefined && type !== legacy.type) notes.push(`type '${String(legacy.type)}' is not one of ${PACKAGE_TYPES.join('/')}: set to direct`);
  const snake = name.replace(/-/g, '_');

  const security = { ...DEFAULT_SECURITY, ...(typeof legacy.timeout === 'number' ? { timeout_ms: legacy.timeout } : {}), ...(isRecord(legacy.security) ? legacy.security : {}) };
  if (isRecord(legacy.permissions)) Object.assign(security, securityFromPermissions(legacy.permissions, notes));

  const refs = (folder: string) => [...after].filter((p) => p.startsWith(`${folder}/`) && !p.split('/').some((s) => s.startsWith('.'))).sort().map((p) => `./${p}`);
  const helpers = [...after].filter((p) => p.startsWith('scripts/') && p !== entry && CODE_EXTENSIONS.has(extensionOf(p))).sort().map((p) => `./${p}`);
  const newResources = {
    ...(resources ?? {}),
    entry: `./${entry}`,
    ...(helpers.length > 0 ? { helpers } : {}),
    ...(refs('references').length > 0 ? { references: refs('references') } : {}),
    ...(refs('assets').length > 0 ? { assets: refs('assets') } : {}),
  };

  const inputSchema = isRecord(legacy.input_schema) ? legacy.input_schema : schemaFromAbp(legacy.abp) ?? { type: 'object', properties: {} };
  const handled = new Set(['name', 'displayName', 'description', 'version', 'type', 'permissions', 'security', 'resources', 'timeout', 'input_schema', 'output_schema', 'triggers', 'capabilities', 'tags']);
  const passthrough: Record<string, unknown> = {};
  const metadataMap: Record<string, unknown> = isRecord(legacy.metadata) ? { ...legacy.metadata } : {};
  for (const [key, value] of Object.entries(legacy)) {
    if (handled.has(key) || key === 'metadata') continue;
    if (KNOWN_FRONTMATTER_FIELDS.has(key)) passthrough[key] = value;
    else {
      metadataMap[key] = typeof value === 'string' ? value : JSON.stringify(value);
      notes.push(`unknown field '${key}' moved under metadata`);
    }
  }
  const fields: Record<string, unknown> = {
    name,
    displayName,
    description,
    version,
    type,
    ...pickKnown(passthrough, ['category', 'domain', 'keywords']),
    tags: Array.isArray(legacy.tags) ? legacy.tags : Array.isArray(legacy.keywords) ? legacy.keywords : [],
    capabilities: Array.isArray(legacy.capabilities) ? legacy.capabilities : [snake],
    triggers: isRecord(legacy.triggers) ? legacy.triggers : { intents: [snake], phrases: [displayName], priority: 0.5 },
    input_schema: inputSchema,
    output_schema: isRecord(legacy.output_schema) ? legacy.output_schema : { type: 'object' },
    ...Object.fromEntries(Object.entries(passthrough).filter(([k]) => !['category', 'domain', 'keywords'].includes(k))),
    ...(Object.keys(metadataMap).length > 0 ? { metadata: metadataMap } : {}),
    security,
    resources: newResources,
  };
  if (legacy.permissions !== undefined) notes.push('permissions folded into security');

  const title = /^\s*#\s/m.test(newBody) ? '' : `# ${displayName}\n\n`;
  const finalBody = newBody.trim() === '' ? `# ${displayName}\n\n${description}\n\n## Steps\n\n1. Call the entry script (${entry}) with the input described by input_schema.\n` : `${title}${newBody.replace(/^\s*\n/, '')}`;

  // 4. Files: back up (or drop) the legacy declarations, write the new SKILL.md, keep the folders.
  if (skillMdText !== undefined) ops.unshift(backup ? { kind: 'backup', from: 'SKILL.md', to: 'SKILL.md.legacy' } : { kind: 'delete', path: 'SKILL.md' });
  if (metadataFile) ops.unshift(backup ? { kind: 'backup', from: metadataFile, to: `${metadataFile}.legacy` } : { kind: 'delete', path: metadataFile });
  ops.push({ kind: 'write', path: 'SKILL.md', content: inStyle(`---\n${stringify(fields, { lineWidth: 0, aliasDuplicateObjects: false })}---\n\n${finalBody.endsWith('\n') ? finalBody : `${finalBody}\n`}`) });
  for (const folder of ['references', 'assets']) {
    if (![...after].some((p) => p.startsWith(`${folder}/`))) ops.push({ kind: 'write', path: `${folder}/.gitkeep`, content: '' });
  }
  return { status: 'migrate', ops, notes };
}

/**
 * METADATA.yml's mapping, read with the YAML options frontmatter is read with. A file that is not
 * YAML, or not a mapping, fails this skill's migration with the place and a fix, never the run.
 */
function readMetadata(file: string, text: string): Record<string, unknown> {
  const doc = parseDocument(text, { schema: 'core', uniqueKeys: true, prettyErrors: false, strict: true, logLevel: 'error' });
  const at = (offset: number) => positionAt(sourceFromString(text), offset);
  const exhausted = stackExhaustedAt(doc, text, LIMITS.maxDepth);
  if (exhausted !== undefined) {
    throw new MigrationError(file, `${file} nests deeper than ${LIMITS.maxDepth} levels`, { position: at(exhausted), hint: 'flatten the structure: a skill\'s metadata is a few plain fields' });
  }
  const error = doc.errors[0];
  if (error) {
    // The yaml library reports an unclosed [ or { where the text ends; the user needs the bracket.
    const unclosed = error.code === 'BAD_INDENT' && /^Flow (sequence|mapping)/.test(error.message);
    const offset = unclosed ? Math.max(text.lastIndexOf('[', error.pos[0]), text.lastIndexOf('{', error.pos[0]), 0) : error.pos[0];
    throw new MigrationError(file, `${file} is not valid YAML: ${firstLine(error.message)}`, {
      position: at(offset),
      hint: unclosed ? 'close the bracket this value opens, or quote the value if the bracket is part of the text' : error.code === 'DUPLICATE_KEY' ? 'write each field once; remove or merge the repeated one' : 'fix the YAML there: close every quote and bracket a value opens, and quote values that contain `: ` or start with a special character',
    });
  }
  let parsed: unknown;
  const failing = aliasThatFails(doc);
  try {
    parsed = doc.toJS({ maxAliasCount: LIMITS.maxAliases });
  } catch (cause) {
    throw new MigrationError(file, `${file} cannot be read: ${firstLine((cause as Error).message)}`, { position: at(failing.alias?.range?.[0] ?? 0), hint: 'write the values out instead of referring to them with aliases (*name)', cause });
  }
  if (parsed !== null && !isRecord(parsed)) {
    throw new MigrationError(file, `${file} is not a YAML mapping`, { position: at(doc.contents?.range?.[0] ?? 0), hint: 'write one `field: value` per line, starting with name: and description:' });
  }
  return parsed ?? {};
}

const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

/**
 * The line ending a text is written with: CRLF when most of its line breaks are CRLF, else LF
 * (a text with no line break at all among them).
 *
 * @example
 * lineEndingOf('---\r\nname: x\r\n') // '\r\n'
 */
export function lineEndingOf(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/**
 * Legacy `permissions` (the package format's migration notes) → `security`: network true → allowlist (hosts to be
 * listed), false/none → none; filesystem none/read → none/read-only, write → read-only plus
 * requires_filesystem and a note, since write access has no equivalent; timeout → timeout_ms.
 */
export function securityFromPermissions(permissions: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(permissions)) {
    if (key === 'network') {
      if (value === false || value === 'none' || value === null) out.network = 'none';
      else {
        out.network = 'allowlist';
        out.network_allowlist = Array.isArray(value) ? value.map(String) : [];
        if (!Array.isArray(value)) notes.push('permissions.network allowed any host: list the hosts the skill needs in security.network_allowlist');
      }
    } else if (key === 'filesystem') {
      const v = String(value).toLowerCase();
      if (value === false || v === 'none') out.filesystem = 'none';
      else if (['read', 'read-only', 'readonly', 'true', 'ro'].includes(v)) out.filesystem = 'read-only';
      else {
        out.filesystem = 'read-only';
        out.requires_filesystem = true;
        notes.push(`permissions.filesystem '${String(value)}' has no security equivalent: set to read-only with requires_filesystem; review it`);
      }
    } else if (key === 'timeout') {
      const timeoutMs = durationMs(value);
      if (timeoutMs === undefined) notes.push(`permissions.timeout '${String(value)}' is not a duration and was dropped: set security.timeout_ms (milliseconds) by hand`);
      else {
        out.timeout_ms = timeoutMs;
        notes.push(`permissions.timeout ${typeof value === 'number' ? value : `'${String(value)}'`} → security.timeout_ms ${timeoutMs}${timeoutNote(value, timeoutMs)}`);
      }
    } else notes.push(`permissions.${key} has no security equivalent and was dropped`);
  }
  return out;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000 };

/**
 * A legacy timeout in milliseconds. The legacy format never said what unit a bare number is in;
 * it is read as milliseconds, the unit of `security.timeout_ms` and of the top-level `timeout`
 * migrated before it. Of the two readings that is the cautious one: a number meant as seconds
 * gives a run too little time, which fails loudly, never hours of it.
 */
function durationMs(value: unknown): number | undefined {
  const match = typeof value === 'number' ? [String(value), String(value), ''] : typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min)?\s*$/i.exec(value) : null;
  if (!match) return undefined;
  const ms = Math.ceil(Number(match[1]) * (UNIT_MS[(match[2] ?? '').toLowerCase()] ?? 1));
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** Says how a timeout without a unit was read, and what to write if it meant seconds. */
function timeoutNote(value: unknown, timeoutMs: number): string {
  if (typeof value === 'string' && /[a-z]\s*$/i.test(value)) return '';
  const seconds = timeoutMs < 1000 ? `; that is under a second: if it meant seconds, set security.timeout_ms to ${timeoutMs * 1000}` : '';
  return ` (the legacy format gives no unit; read as milliseconds${seconds})`;
}

/** ABP tool parameters (as in the package format's examples) → a JSON Schema for the first tool's input. */
function schemaFromAbp(abp: unknown): Record<string, unknown> | undefined {
  if (!isRecord(abp) || !Array.isArray(abp.tools) || !isRecord(abp.tools[0]) || !isRecord(abp.tools[0].parameters)) return undefined;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [key, spec] of Object.entries(abp.tools[0].parameters)) {
    if (!isRecord(spec)) continue;
    const { required: isRequired, ...rest } = spec;
    properties[key] = rest;
    if (isRequired === true) required.push(key);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function firstParagraph(markdown: string): string | undefined {
  const paragraph = markdown.split(/\r?\n\s*\r?\n/).map((p) => p.trim()).find((p) => p !== '' && !p.startsWith('#') && !p.startsWith('```') && !p.startsWith('The implementation lives in'));
  return paragraph?.replace(/\s+/g, ' ');
}

function pickKnown(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => record[k] !== undefined).map((k) => [k, record[k]]));
}

/** A definition of `execute`: a function, a variable bound to one, or a name in an export list. */
const DEFINES_EXECUTE = /\bfunction\s*\*?\s*execute\s*[(<]|\b(?:const|let|var)\s+execute\s*[:=]|\bexport\s*\{[^}]*\bexecute\b/;

/** A fenced block of a Markdown body: the fences included (`start`, `end`: offsets, the last line break left out) and its code. */
interface CodeBlock {
  start: number;
  end: number;
  code: string;
}

/**
 * The closed top-level fenced blocks of `body` marked `ts` or `typescript`, by CommonMark's rules:
 * a fence is up to three spaces, then three or more backticks or tildes; it is closed by a line of
 * the same character, at least as long, and nothing else. A fence inside a longer one (a Markdown
 * example that shows a TypeScript block) is text of that block.
 */
function typescriptBlocks(body: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: { char: string; length: number; start: number; codeStart: number; typescript: boolean } | undefined;
  for (let at = 0; at < body.length; ) {
    const eol = body.indexOf('\n', at);
    const next = eol === -1 ? body.length : eol + 1;
    const line = body.slice(at, eol === -1 ? body.length : eol).replace(/\r$/, '');
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open) {
      if (fence && fence[1]![0] === open.char && fence[1]!.length >= open.length && fence[2]!.trim() === '') {
        if (open.typescript) blocks.push({ start: open.start, end: at + line.length, code: body.slice(open.codeStart, at) });
        open = undefined;
      }
    } else if (fence && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) {
      const info = fence[2]!.trim().split(/\s+/)[0]!.toLowerCase();
      open = { char: fence[1]![0]!, length: fence[1]!.length, start: at, codeStart: next, typescript: info === 'ts' || info === 'typescript' };
    }
    at = next;
  }
  return blocks;
}

/**
 * `value` with each YAML merge key (`<<: *base`, `<<: [*a, *b]`) folded into its mapping as YAML 1.1
 * defines it: the mapping's own keys win, then the merged mappings in their order. The frontmatter
 * parser reads YAML 1.2, where `<<` is an ordinary key holding the aliased mapping.
 */
function withMergeKeysResolved(value: unknown, depth = 0): unknown {
  if (depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => withMergeKeysResolved(v, depth + 1));
  if (!isRecord(value)) return value;
  const merged = Object.hasOwn(value, '<<') ? value['<<'] : undefined;
  const bases = (Array.isArray(merged) ? merged : [merged]).filter(isRecord).map((b) => withMergeKeysResolved(b, depth + 1) as Record<string, unknown>);
  // Defined, not assigned: a key such as `__proto__` stays a key.
  const out: Record<string, unknown> = {};
  const put = (key: string, v: unknown) => Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  for (const base of [...bases].reverse()) for (const [key, v] of Object.entries(base)) put(key, v);
  for (const [key, v] of Object.entries(value)) if (key !== '<<' || bases.length === 0) put(key, withMergeKeysResolved(v, depth + 1));
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
