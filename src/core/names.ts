import { isWindowsDeviceName } from './paths.ts';

/**
 * Skill name rules, shared by the validator and the runtime. Each check returns the reason a
 * name fails, or undefined; validation rules turn reasons into diagnostics.
 */

/** Agent Skills names: 1–64 of a-z, 0-9 and `-`; no leading, trailing or doubled hyphen. */
export const AGENT_SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** skill.json names: snake_case (the skill.json meta-schema). */
export const FUNCTION_NAME = /^[a-z][a-z0-9_]*$/;
export const MAX_NAME_LENGTH = 64;

/**
 * Cyrillic, Greek and IPA letters drawn like a Latin one (a subset of Unicode's confusables.txt
 * that matters for skill names): a name typed with one is suggested with the Latin letter, and the
 * scanner's look-alike check reads them as it.
 */
export const LATIN_LOOKALIKES: Readonly<Record<string, string>> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', х: 'x', у: 'y', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w',
  һ: 'h', ӏ: 'l', ɡ: 'g', ɑ: 'a', ο: 'o', α: 'a', ν: 'v', ρ: 'p', τ: 't', ι: 'i', κ: 'k', υ: 'u', ε: 'e',
};

/**
 * A valid name close to `raw`, to suggest: look-alike letters made Latin (a Cyrillic `о` → `o`),
 * accents dropped (`ünicode` → `unicode`), lower case,
 * every other run of characters one separator (`-` for Agent Skills names, `_` for skill.json
 * names, which also start with a letter). Empty when nothing of `raw` can be kept.
 *
 * @example
 * suggestName('My Skill!', '-'); // 'my-skill'
 */
export function suggestName(raw: string, separator: '-' | '_'): string {
  const plain = Array.from(raw.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase(), (char) => LATIN_LOOKALIKES[char] ?? char).join('');
  const joined = plain.replace(/[^a-z0-9]+/g, separator).replace(new RegExp(`^${separator}+|${separator}+$`, 'g'), '');
  return separator === '_' ? joined.replace(/^[^a-z]+/, '') : joined;
}

/** The longest description the Agent Skills specification allows, in characters. */
export const MAX_DESCRIPTION_LENGTH = 1024;
/**
 * The grammar every published skill name follows, whatever a registry's config lets through: 1–64
 * letters, digits, `-` and `_`, starting with a letter or digit. Clients build folder names and
 * URLs from names, so this is what keeps `../x`, `/etc` or `.` from ever naming a path. It is the
 * union of the two formats' grammars (kebab-case, snake_case), widened only by case so a registry
 * that downgrades `name/charset` still publishes.
 */
export const PUBLISHED_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The key under which two names collide: NFC-normalised and case-folded. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** `code_review` → `code-review`: how a skill.json name appears where Agent Skills names are required. */
export function toKebab(name: string): string {
  return name.replace(/_+/g, '-').replace(/^-+|-+$/g, '');
}

/**
 * The name a skill is published under in the discovery indexes and installed folders: skill.json
 * names in kebab-case, every other name as it is. Two skills with one discovery name would
 * share a folder in every Agent Skills client, so the registry refuses that.
 *
 * @example discoveryName('code_review', 'skill-json') // 'code-review'
 */
export function discoveryName(name: string, format: string): string {
  return format === 'skill-json' ? toKebab(name) : name;
}

/**
 * The folder an install of this skill would be refused on Windows, or undefined: the name itself
 * (`con`, `lpt1`), or for a skill.json function the kebab-case folder it is installed into
 * (`nul_` → `nul`). Windows cannot create a folder named after a device, so such a skill could
 * never be installed there, nor a project holding it checked out.
 *
 * @example
 * windowsDeviceFolder('con', 'skill-md');    // 'con'
 * windowsDeviceFolder('nul_', 'skill-json'); // 'nul'
 * windowsDeviceFolder('console', 'skill-md'); // undefined
 */
export function windowsDeviceFolder(name: string, format: string): string | undefined {
  const folder = discoveryName(name, format);
  return isWindowsDeviceName(name) ? name : isWindowsDeviceName(folder) ? folder : undefined;
}

/** `code-review` → `Code Review`. */
export function titleFromName(name: string): string {
  return name
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * The end of the description `skilldex new` writes when given none: the validator warns about a
 * skill published with it (`description/placeholder`), as it tells an agent nothing.
 */
export const PLACEHOLDER_DESCRIPTION = 'replace this sentence with what the skill does and when an agent should use it.';
