import { AGENT_SKILL_NAME, FUNCTION_NAME, MAX_NAME_LENGTH, PUBLISHED_NAME } from '../../core/names.ts';
import type { Position } from '../../core/parse/source-text.ts';
import type { DiagnosticSink } from '../diagnostics.ts';

/**
 * Name rules for both formats. Messages for SKILL.md follow the reference validator's wording
 * where it has one, so people searching an error find the spec.
 */
export function checkName(
  name: unknown,
  format: 'skill-md' | 'skill-json',
  where: { file: string; at: Position; folderName: string; skill: string },
  sink: DiagnosticSink,
): name is string {
  const { file, at, skill } = where;
  // A name problem blocks the skill only when the registry keeps the rule at `error`…
  let ok = true;
  const fail = (severity: string) => {
    if (severity === 'error') ok = false;
  };
  if (typeof name !== 'string' || name.trim() === '') {
    const fromFolder = nameFromFolder(where.folderName);
    const hint = format !== 'skill-md' ? 'add a snake_case "name"'
      : fromFolder === where.folderName ? `add \`name: ${fromFolder}\``
      : `add a kebab-case \`name:\` and give the folder the same name${fromFolder ? `, e.g. '${fromFolder}'` : ''}`;
    sink.report('name/required', file, at, 'missing required field: name', { hint, skill });
    return false;
  }
  // …but a name outside the published grammar is never published, whatever the config says:
  // clients turn names into folder names and URL segments.
  if (!PUBLISHED_NAME.test(name)) ok = false;
  if (name.length > MAX_NAME_LENGTH) {
    fail(sink.report('name/length', file, at, `Skill name '${name.slice(0, 20)}…' exceeds ${MAX_NAME_LENGTH} character limit (${name.length} chars)`, { hint: 'shorten the name', skill }));
  }
  if (format === 'skill-json') {
    if (!FUNCTION_NAME.test(name)) {
      fail(sink.report('name/charset', file, at, `function name '${name}' must be snake_case (^[a-z][a-z0-9_]*$)`, { hint: `try '${name.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^[^a-z]+/, '')}'`, skill }));
    }
    return ok;
  }
  if (/[^a-z0-9-]/.test(name)) {
    fail(sink.report('name/charset', file, at, `Skill name '${name}' must contain only lowercase letters, digits and hyphens`, { hint: `try '${name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '')}'`, skill }));
  }
  if (name.startsWith('-') || name.endsWith('-')) {
    fail(sink.report('name/hyphens', file, at, 'Skill name cannot start or end with a hyphen', { hint: 'remove the leading or trailing hyphen', skill }));
  }
  if (name.includes('--')) {
    fail(sink.report('name/hyphens', file, at, 'Skill name cannot contain consecutive hyphens', { hint: 'use single hyphens between words', skill }));
  }
  if (name !== where.folderName) {
    fail(sink.report('name/folder-mismatch', file, at, `Directory name '${where.folderName}' must match skill name '${name}'`, { hint: folderMismatchHint(name, where.folderName), skill }));
  }
  return ok;
}

export function checkDescription(description: unknown, where: { file: string; at: Position; skill: string }, sink: DiagnosticSink): description is string {
  if (typeof description !== 'string' || description.trim() === '') {
    sink.report('description/required', where.file, where.at, 'missing required field: description', { hint: 'say what the skill does and when to use it, in at most 1024 characters', skill: where.skill });
    return false;
  }
  if (description.length > 1024) {
    const severity = sink.report('description/length', where.file, where.at, `Description exceeds 1024 character limit (${description.length} chars)`, { hint: 'move detail into the body; keep the description to what and when', skill: where.skill });
    return severity !== 'error';
  }
  return true;
}

const isSkillName = (text: string) => text.length <= MAX_NAME_LENGTH && AGENT_SKILL_NAME.test(text);

/**
 * A valid skill name derived from a folder name, or undefined when nothing usable is left:
 * `Security Scanning Tools` → `security-scanning-tools`, `PDFTools_v2` → `pdf-tools-v2`,
 * `Überprüfung` → `uberprufung`. Kebab-case, single hyphens, at most 64 characters.
 */
export function nameFromFolder(folder: string): string | undefined {
  const words = folder
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // accents, after NFKD split them from their letters
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2') // camelCase
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2') // PDFTools
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const name = words.slice(0, MAX_NAME_LENGTH).replace(/-+$/, '');
  return name === '' ? undefined : name;
}

/**
 * Only suggests names that pass every name rule: renaming the folder to the declared name when
 * that name is valid, declaring the folder's name when the folder name is valid, else one name
 * derived from the folder for both.
 */
function folderMismatchHint(name: string, folderName: string): string {
  const options: string[] = [];
  if (isSkillName(name)) options.push(`rename the folder to '${name}'`);
  if (isSkillName(folderName)) options.push(`set \`name: ${folderName}\``);
  if (options.length > 0) return options.join(' or ');
  const derived = nameFromFolder(folderName) ?? nameFromFolder(name);
  return derived
    ? `rename the folder to '${derived}' and set \`name: ${derived}\``
    : 'give the folder and `name:` the same kebab-case name (a-z, 0-9 and single hyphens, at most 64 characters)';
}
