import { AGENT_SKILL_NAME, FUNCTION_NAME, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, PLACEHOLDER_DESCRIPTION, suggestName, windowsDeviceFolder } from '../../core/names.ts';
import { WINDOWS_DEVICE_NAMES } from '../../core/paths.ts';
import { defineRule, valueKind, type DeclarationContext } from './rule.ts';

/**
 * Name and description rules, for both formats (skill.json names are snake_case, SKILL.md names
 * kebab-case). Messages for SKILL.md follow the reference validator's wording where it has one,
 * so people searching an error find the spec. Once `name/required` has reported, the other name
 * rules stay quiet: there is no name to judge.
 */

/** The declared name, when there is one to check. */
const declaredName = ({ data }: DeclarationContext): string | undefined =>
  typeof data.name === 'string' && data.name.trim() !== '' ? data.name : undefined;

/**
 * What a field holds when it is there but is not text (`name: 123` is a number in YAML), said
 * so: "missing" would send the author looking for a field they wrote. Undefined when it is absent,
 * empty or null, which is missing.
 */
function notText(value: unknown): string | undefined {
  if (value === undefined || value === null || typeof value === 'string') return undefined;
  const kind = typeof value === 'boolean' ? 'true or false' : valueKind(value);
  return `is ${kind}${typeof value === 'number' || typeof value === 'boolean' ? ` (${String(value)})` : ''}, not text`;
}

export const nameRequired = defineRule({
  id: 'name/required',
  severity: 'error',
  scope: 'declaration',
  description: '`name` is required.',
  hint: 'add a `name:` field',
  check(ctx, report) {
    if (declaredName(ctx) !== undefined) return;
    const folderName = ctx.src.folderName;
    const fromFolder = nameFromFolder(folderName);
    const hint = ctx.format !== 'skill-md' ? 'add a snake_case "name"'
      : fromFolder === folderName ? `add \`name: ${fromFolder}\``
      : `add a kebab-case \`name:\` and give the folder the same name${fromFolder ? `, e.g. '${fromFolder}'` : ''}`;
    const wrong = notText(ctx.data.name);
    if (wrong) {
      report(['name'], `name ${wrong}`, { hint: ctx.format === 'skill-md' ? `write a kebab-case name, e.g. \`name: ${fromFolder || 'my-skill'}\` (YAML reads digits alone, true and false as other types)` : 'write the name as a snake_case JSON string' });
      return;
    }
    report(['name'], 'missing required field: name', { hint });
  },
});

export const nameLength = defineRule({
  id: 'name/length',
  severity: 'error',
  scope: 'declaration',
  description: 'Names are 1–64 characters.',
  hint: 'shorten the name',
  check(ctx, report) {
    const name = declaredName(ctx);
    if (name !== undefined && name.length > MAX_NAME_LENGTH) {
      report(['name'], `Skill name '${name.slice(0, 20)}…' exceeds ${MAX_NAME_LENGTH} character limit (${name.length} chars)`);
    }
  },
});

/** The rule's own hint when nothing of the name can be kept, else a name to try. */
const tryName = (suggested: string): { hint?: string } => (suggested ? { hint: `try '${suggested}'` } : {});

export const nameCharset = defineRule({
  id: 'name/charset',
  severity: 'error',
  scope: 'declaration',
  description: 'Names use only a-z, 0-9 and `-` (skill.json: snake_case).',
  hint: 'use lowercase letters, digits and hyphens (skill.json: underscores)',
  check(ctx, report) {
    const name = declaredName(ctx);
    if (name === undefined) return;
    if (ctx.format === 'skill-json') {
      if (!FUNCTION_NAME.test(name)) {
        report(['name'], `function name '${name}' must be snake_case (^[a-z][a-z0-9_]*$)`, tryName(suggestName(name, '_')));
      }
    } else if (/[^a-z0-9-]/.test(name)) {
      report(['name'], `Skill name '${name}' must contain only lowercase letters, digits and hyphens`, tryName(suggestName(name, '-')));
    }
  },
});

const HYPHENS = {
  edge: 'Skill name cannot start or end with a hyphen',
  double: 'Skill name cannot contain consecutive hyphens',
} as const;

export const nameHyphens = defineRule({
  id: 'name/hyphens',
  severity: 'error',
  scope: 'declaration',
  description: 'Names must not start or end with `-` or contain `--`.',
  hint: 'use single hyphens between words',
  messages: HYPHENS,
  check(ctx, report) {
    const name = declaredName(ctx);
    if (name === undefined || ctx.format !== 'skill-md') return;
    if (name.startsWith('-') || name.endsWith('-')) report(['name'], HYPHENS.edge, { hint: 'remove the leading or trailing hyphen' });
    if (name.includes('--')) report(['name'], HYPHENS.double);
  },
});

export const nameFolderMismatch = defineRule({
  id: 'name/folder-mismatch',
  severity: 'error',
  scope: 'declaration',
  description: 'A SKILL.md name must equal its folder name.',
  hint: 'give the folder and `name:` the same name',
  check(ctx, report) {
    const name = declaredName(ctx);
    const folderName = ctx.src.folderName;
    if (name === undefined || ctx.format !== 'skill-md' || name === folderName) return;
    report(['name'], `Directory name '${folderName}' must match skill name '${name}'`, { hint: folderMismatchHint(name, folderName) });
  },
});

// An error, not a warning: the skill could not be installed on Windows at all (every agent folder
// holds it as `<agents>/skills/<name>/`), and a project that installed it elsewhere could no
// longer be checked out there. A published file named so is files/path's, and an error too.
export const nameWindowsDevice = defineRule({
  id: 'name/windows-device',
  severity: 'error',
  scope: 'declaration',
  description: `A skill's name, or the folder it is installed into (a skill.json function's kebab-case name), must not be a Windows device name (${WINDOWS_DEVICE_NAMES}, in any case): Windows cannot create that folder, so the skill could not be installed there.`,
  hint: 'choose another name (for SKILL.md, rename the folder too)',
  check(ctx, report) {
    const name = declaredName(ctx);
    const folder = name === undefined ? undefined : windowsDeviceFolder(name, ctx.format);
    if (name === undefined || folder === undefined) return;
    const kind = ctx.format === 'skill-json' ? 'Function name' : 'Skill name';
    const installed = folder === name ? `${kind} '${name}' is` : `${kind} '${name}' is installed as folder '${folder}',`;
    const renamed = ctx.format === 'skill-json' ? `${name.replace(/_+$/, '')}_skill` : `${name}-skill`;
    report(['name'], `${installed} a device name on Windows (${WINDOWS_DEVICE_NAMES}), where no folder can have it: the skill could not be installed there`, {
      hint: ctx.format === 'skill-json' ? `choose another name, e.g. '${renamed}'` : `choose another name and give the folder the same, e.g. '${renamed}'`,
    });
  },
});

export const descriptionRequired = defineRule({
  id: 'description/required',
  severity: 'error',
  scope: 'declaration',
  description: '`description` is required and not empty.',
  hint: 'say what the skill does and when to use it, in at most 1024 characters',
  check({ data, format }, report) {
    const wrong = notText(data.description);
    if (wrong) report(['description'], `description ${wrong}`, { hint: format === 'skill-md' ? 'write the description as a sentence, quoted if YAML would read it as something else' : 'write the description as a JSON string' });
    else if (typeof data.description !== 'string' || data.description.trim() === '') report(['description'], 'missing required field: description');
  },
});

export const descriptionLength = defineRule({
  id: 'description/length',
  severity: 'error',
  scope: 'declaration',
  description: 'Descriptions are at most 1024 characters.',
  hint: 'move detail into the body; keep the description to what and when',
  check({ data }, report) {
    const { description } = data;
    if (typeof description === 'string' && description.trim() !== '' && description.length > MAX_DESCRIPTION_LENGTH) {
      report(['description'], `Description exceeds ${MAX_DESCRIPTION_LENGTH} character limit (${description.length} chars)`);
    }
  },
});

export const descriptionPlaceholder = defineRule({
  id: 'description/placeholder',
  severity: 'warning',
  scope: 'declaration',
  description: 'The description is still the placeholder `skilldex new` wrote; it tells an agent nothing about when to use the skill.',
  hint: 'say what the skill does and when an agent should use it',
  check({ data }, report) {
    const { description } = data;
    if (typeof description === 'string' && description.includes(PLACEHOLDER_DESCRIPTION)) report(['description'], 'the description is still the placeholder `skilldex new` wrote');
  },
});

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
