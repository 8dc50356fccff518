import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import { FUNCTION_NAME, toKebab } from '../core/names.ts';
import { Limits } from '../core/schemas/config.ts';
import { parseFrontmatter } from '../core/parse/frontmatter.ts';
import { sourceFromString, withoutBom } from '../core/parse/source-text.ts';
import { ConvertError } from './convert-error.ts';

/**
 * `skilldex convert`: SKILL.md ⇄ skill.json + prompt.md (docs/skill-json.md). Pure: text in, files and
 * a list of what could not be carried over out. Everything both formats can express survives a
 * round trip; everything else is named, never dropped silently.
 */

export interface ConvertedFile {
  path: string;
  content: string;
}

export interface LostField {
  field: string;
  reason: string;
}

export interface Conversion {
  /** Declared name in the new format. */
  name: string;
  /** Declared name in the old format; differs from `name` when the naming conventions do. */
  formerName: string;
  /** Files to write, relative to the skill folder. */
  files: ConvertedFile[];
  /** The old declaration files, which must go (a folder holds SKILL.md or skill.json, not both). */
  replaces: string[];
  lost: LostField[];
  /** Things worth knowing that are not losses (defaults filled in, folder renames). */
  notes: string[];
}


const DEFAULT_LIMITS = Limits.parse({});
const DEFAULT_SCHEMA = { type: 'object' };

/** Why each SKILL.md field has no home in skill.json (whose meta-schema has additionalProperties: false). */
const NO_SKILL_JSON_FIELD: Record<string, string> = {
  license: 'skill.json has no license field',
  compatibility: 'skill.json has no compatibility field',
  'allowed-tools': 'skill.json has no tool permissions',
  displayName: 'skill.json has no display title',
  type: 'skill.json has no execution type (its mode is llm)',
  capabilities: 'skill.json has no capabilities list',
  triggers: 'skill.json has no triggers',
  domain: 'skill.json has no domain field',
  keywords: 'skill.json has tags but no keywords',
  protocol: 'skill.json has no protocol field',
  abp: 'skill.json declares one function, not ABP tools',
  resources: 'an llm skill.json runs no scripts; resources.entry/helpers/references/assets are not declared',
  cacheable: 'skill.json has no caching fields',
  ttl: 'skill.json has no caching fields',
  permissions: 'skill.json has no sandbox policy',
  actions: 'skill.json declares one function, not protocol actions',
};

const CARRIED_TO_JSON = new Set(['name', 'description', 'category', 'tags', 'version', 'author', 'input_schema', 'output_schema', 'metadata', 'security']);

/**
 * SKILL.md → skill.json (mode llm) + prompt.md: the body becomes the prompt.
 *
 * @example
 * skillMdToSkillJson('---\nname: code-review\ndescription: Reviews code.\n---\nYou review code.\n', { category: 'code' })
 * // files: skill.json { name: 'code_review', …, mode: 'llm' }, prompt.md 'You review code.\n'
 */
export function skillMdToSkillJson(text: string, context: { category?: string | undefined } = {}): Conversion {
  // Read as the validator reads it: a byte-order mark before the `---` is not a missing frontmatter.
  const fm = parseFrontmatter(sourceFromString(withoutBom(text)), DEFAULT_LIMITS);
  const problem = fm.problems[0];
  if (!fm.data || problem) throw new ConvertError(`SKILL.md cannot be read: ${problem?.message ?? 'no frontmatter'}`);
  const data = fm.data;
  if (typeof data.name !== 'string' || typeof data.description !== 'string') throw new ConvertError('SKILL.md needs a name and a description');
  const name = data.name.replace(/-/g, '_');
  if (!FUNCTION_NAME.test(name)) throw new ConvertError(`'${data.name}' has no snake_case form that skill.json accepts ('${name}' must match ^[a-z][a-z0-9_]*$)`);

  const lost: LostField[] = [];
  const notes: string[] = [];
  const metadata = isRecord(data.metadata) ? data.metadata : {};
  const version = str(data.version) ?? str(metadata.version);
  const author = str(data.author) ?? str(metadata.author);
  const category = str(data.category) ?? context.category;
  if (category === undefined) notes.push("category: SKILL.md has none; set to 'general' (skill.json requires one)");
  const security = isRecord(data.security) ? data.security : undefined;
  const timeout = typeof security?.timeout_ms === 'number' ? security.timeout_ms : undefined;

  const manifest: Record<string, unknown> = {
    name,
    description: data.description,
    category: category ?? 'general',
    input: isRecord(data.input_schema) ? data.input_schema : DEFAULT_SCHEMA,
    output: isRecord(data.output_schema) ? data.output_schema : DEFAULT_SCHEMA,
    mode: 'llm',
    calls: [],
    ...(version !== undefined ? { version } : {}),
    ...(Array.isArray(data.tags) ? { tags: data.tags } : {}),
    ...(author !== undefined ? { author } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
  };

  for (const key of Object.keys(data)) {
    if (CARRIED_TO_JSON.has(key)) continue;
    lost.push({ field: key, reason: NO_SKILL_JSON_FIELD[key] ?? 'not part of the skill.json meta-schema' });
  }
  const extraMetadata = Object.keys(metadata).filter((k) => !(k === 'version' && str(data.version) === undefined) && !(k === 'author' && str(data.author) === undefined));
  for (const key of extraMetadata) lost.push({ field: `metadata.${key}`, reason: 'skill.json has no metadata map' });
  if (security) {
    for (const key of Object.keys(security)) if (key !== 'timeout_ms') lost.push({ field: `security.${key}`, reason: 'skill.json keeps only the timeout (security.timeout_ms → timeout)' });
  }
  if (isRecord(data.resources) && data.resources.entry !== undefined) {
    notes.push(`mode becomes llm: the entry ${String(data.resources.entry)} is no longer run; use a code skill (index.ts) to keep running it`);
  }
  if (name !== data.name) notes.push(`name: '${data.name}' → '${name}' (skill.json names are snake_case; the folder may stay kebab-case)`);

  return {
    name,
    formerName: data.name,
    files: [
      { path: 'skill.json', content: `${JSON.stringify(manifest, null, 2)}\n` },
      { path: 'prompt.md', content: fm.body.replace(/^\s*\n/, '') },
    ],
    replaces: ['SKILL.md'],
    lost,
    notes,
  };
}

/**
 * skill.json (+ prompt.md) → SKILL.md: the prompt becomes the body; the signature becomes
 * `input_schema` / `output_schema`.
 */
export function skillJsonToSkillMd(jsonText: string, prompt: string | undefined, context: { folderName?: string } = {}): Conversion {
  let data: unknown;
  try {
    data = JSON.parse(withoutBom(jsonText));
  } catch (error) {
    throw new ConvertError(`skill.json is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(data) || typeof data.name !== 'string' || typeof data.description !== 'string') throw new ConvertError('skill.json needs a name and a description');
  const name = toKebab(data.name);
  const lost: LostField[] = [];
  const notes: string[] = [];

  const fields: Record<string, unknown> = {
    name,
    description: data.description,
    ...(typeof data.version === 'string' ? { version: data.version } : {}),
    ...(typeof data.author === 'string' ? { author: data.author } : {}),
    ...(typeof data.category === 'string' ? { category: data.category } : {}),
    ...(Array.isArray(data.tags) ? { tags: data.tags } : {}),
    // The default signature says nothing; leaving it out keeps a plain skill plain.
    ...(isRecord(data.input) && !isDeepStrictEqual(data.input, DEFAULT_SCHEMA) ? { input_schema: data.input } : {}),
    ...(isRecord(data.output) && !isDeepStrictEqual(data.output, DEFAULT_SCHEMA) ? { output_schema: data.output } : {}),
    ...(typeof data.timeout === 'number' ? { security: { timeout_ms: data.timeout } } : {}),
  };

  const mode = data.mode;
  let body = prompt === undefined ? undefined : withoutBom(prompt);
  if (mode !== 'llm') {
    lost.push({ field: `mode: ${String(mode)}`, reason: mode === 'code' ? 'the index.ts body is not run from a SKILL.md; move it to scripts/execute.ts as execute(parameters, context, config) and add resources.entry' : 'SKILL.md cannot declare a pipeline of other skills' });
  }
  if (body === undefined) {
    body = `# ${name}\n\n${data.description}\n`;
    if (mode === 'llm') notes.push('prompt.md is missing; the body repeats the description');
  }
  if (Array.isArray(data.calls) && data.calls.length > 0) lost.push({ field: 'calls', reason: 'SKILL.md cannot call other skills' });
  if (data.pipeline !== undefined) lost.push({ field: 'pipeline', reason: 'SKILL.md has no declarative pipeline' });
  if (data.outputMapping !== undefined) lost.push({ field: 'outputMapping', reason: 'SKILL.md has no declarative pipeline' });
  if (typeof data.retry === 'number' && data.retry !== 0) lost.push({ field: 'retry', reason: 'SKILL.md has no retry count' });
  const known = new Set(['name', 'description', 'category', 'input', 'output', 'mode', 'calls', 'pipeline', 'outputMapping', 'version', 'tags', 'author', 'timeout', 'retry']);
  for (const key of Object.keys(data)) if (!known.has(key)) lost.push({ field: key, reason: 'not a skill.json field' });
  if (name !== data.name) notes.push(`name: '${data.name}' → '${name}' (Agent Skills names are kebab-case)`);
  if (context.folderName !== undefined && context.folderName !== name) notes.push(`the folder must be named '${name}' (a SKILL.md name equals its folder); pass --out .../${name}`);

  return {
    name,
    formerName: data.name,
    files: [{ path: 'SKILL.md', content: `---\n${stringify(fields, { lineWidth: 0, aliasDuplicateObjects: false })}---\n\n${body}` }],
    replaces: ['skill.json', ...(prompt !== undefined ? ['prompt.md'] : [])],
    lost,
    notes,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
