import { FUNCTION_NAME, MAX_NAME_LENGTH, PUBLISHED_NAME } from '../../core/names.ts';
import type { Position } from '../parse/source-text.ts';
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
    sink.report('name/required', file, at, 'missing required field: name', { hint: format === 'skill-md' ? `add \`name: ${where.folderName}\`` : 'add a snake_case "name"', skill });
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
    fail(sink.report('name/folder-mismatch', file, at, `Directory name '${where.folderName}' must match skill name '${name}'`, { hint: `rename the folder to '${name}' or set \`name: ${where.folderName}\``, skill }));
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
