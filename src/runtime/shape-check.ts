import { PUBLISHED_NAME } from '../core/names.ts';
import { isSafeSkillPath } from '../core/paths.ts';
import { isNameTemplate } from '../core/url-template.ts';
import type { SkillManifest } from '../core/schemas/manifest.ts';
import type { RegistryIndex } from '../core/schemas/registry-index.ts';

/**
 * How the runtime checks the JSON a registry serves before trusting it. The zod schemas in
 * core/schemas are the single definition of these shapes, and the Node runtime validates with
 * them in full (`zodShapeCheck`). zod adds ~450 KB to a browser bundle, though, so the
 * browser-safe runtime defaults to {@link structuralShapeCheck}: the subset of the same shapes that
 * the client relies on (names, digests, URLs, file lists, run settings). Nothing it skips is used
 * to locate or verify bytes.
 */
export interface ShapeCheck {
  index(raw: unknown): ShapeResult<RegistryIndex>;
  manifest(raw: unknown): ShapeResult<SkillManifest>;
}

export type ShapeResult<T> = { ok: true; value: T } | { ok: false; issues: string[] };

type Rule = (value: unknown) => boolean;
const isString: Rule = (v) => typeof v === 'string';
const isNumber: Rule = (v) => typeof v === 'number' && Number.isFinite(v);
const isBoolean: Rule = (v) => typeof v === 'boolean';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The published name grammar (the zod `SkillName`): names become folder names on disk. */
const isName: Rule = (v) => typeof v === 'string' && PUBLISHED_NAME.test(v);
const isDigest: Rule = (v) => typeof v === 'string' && /^sha256:[0-9a-f]{64}$/.test(v);
const arrayOf = (rule: Rule): Rule => (v) => Array.isArray(v) && v.every(rule);
const optional = (rule: Rule): Rule => (v) => v === undefined || rule(v);
const oneOf = (...values: string[]): Rule => (v) => typeof v === 'string' && values.includes(v);
const shape = (fields: Record<string, Rule>): Rule => (v) => isObject(v) && Object.entries(fields).every(([k, rule]) => rule(v[k]));

const file = shape({ path: (v) => typeof v === 'string' && isSafeSkillPath(v), size: isNumber, digest: isDigest });
const urls = shape({ page: isString, manifest: isString, files: isString, archive: isString });
const format = oneOf('skill-md', 'package', 'skill-json');
const mode = oneOf('instructions', 'code', 'llm', 'composite');

/** What index entries and manifests share. */
const SKILL_FIELDS: Record<string, Rule> = {
  name: isName, title: isString, description: isString, version: isString, tags: arrayOf(isString), tools: arrayOf(isString),
  hasSkillMd: isBoolean, format, mode, keywords: arrayOf(isString), digest: isDigest,
  category: optional(isString),
  triggers: optional(shape({ intents: optional(arrayOf(isString)), phrases: optional(arrayOf(isString)), event_types: optional(arrayOf(isString)), priority: optional(isNumber) })),
};
const ENTRY_FIELDS: Record<string, Rule> = { ...SKILL_FIELDS, path: isString, manifestDigest: isDigest, verdict: optional(oneOf('pass', 'review', 'warn', 'fail')) };
const template: Rule = (v) => typeof v === 'string' && isNameTemplate(v);
const MANIFEST_FIELDS: Record<string, Rule> = {
  ...SKILL_FIELDS, files: arrayOf(file), urls,
  calls: arrayOf(isName), calledBy: arrayOf(isName), timeoutMs: isNumber, retry: isNumber, sourceFile: isString,
  inputSchema: optional(isObject), outputSchema: optional(isObject),
  entry: optional(shape({ path: isString, runner: oneOf('protocol', 'module'), language: isString })),
  actions: optional(arrayOf(shape({ name: isString }))), prompt: optional(isString), instructions: optional(isString),
  pipeline: optional(arrayOf(shape({ step: isString, skill: isString, input: isObject, condition: optional(isString) }))),
  outputMapping: optional(isObject),
};

function check<T>(raw: unknown, fields: Record<string, Rule>, prefix = ''): string[] {
  if (!isObject(raw)) return [`${prefix || '(root)'}: expected an object`];
  return Object.entries(fields).filter(([k, rule]) => !rule(raw[k])).map(([k]) => `${prefix}${k}: missing or of the wrong type`);
}

/** Structural checks of the fields the runtime uses; small enough for the browser bundle. */
export const structuralShapeCheck: ShapeCheck = {
  index(raw) {
    const issues = check(raw, { version: isString, skills: Array.isArray, registry: isObject, urls: shape({ manifest: template, page: template }) });
    if (issues.length === 0) (raw as { skills: unknown[] }).skills.forEach((skill, i) => issues.push(...check(skill, ENTRY_FIELDS, `skills.${i}.`)));
    return issues.length === 0 ? { ok: true, value: raw as RegistryIndex } : { ok: false, issues };
  },
  manifest(raw) {
    const issues = check(raw, MANIFEST_FIELDS);
    return issues.length === 0 ? { ok: true, value: raw as SkillManifest } : { ok: false, issues };
  },
};
