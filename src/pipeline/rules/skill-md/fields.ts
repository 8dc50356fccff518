// One function, not the whole package: semver's index loads ~45 modules on every validate.
import semverValid from 'semver/functions/valid.js';
import { KNOWN_FRONTMATTER_FIELDS } from '../../../core/schemas/skill-md.ts';
import { defineSkillMdRule } from './rule.ts';

export const compatibilityLength = defineSkillMdRule('compatibility/length', 'state the required environment briefly', ({ data }, report) => {
  if (typeof data.compatibility === 'string' && (data.compatibility.length === 0 || data.compatibility.length > 500)) {
    report(['compatibility'], `compatibility must be 1–500 characters (${data.compatibility.length} chars)`);
  }
});

export const metadataNested = defineSkillMdRule('metadata/nested', 'metadata maps strings to strings; quote the value or flatten it', ({ data }, report) => {
  if (!data.metadata || typeof data.metadata !== 'object' || Array.isArray(data.metadata)) return;
  for (const [key, value] of Object.entries(data.metadata)) {
    if (typeof value !== 'string') report(['metadata', key], `metadata.${key} is ${Array.isArray(value) ? 'a list' : typeof value}, not a string`);
  }
});

export const unknownField = defineSkillMdRule('frontmatter/unknown-field', 'move custom data under `metadata:`, or set the rule to off in skilldex.config.json', ({ data }, report) => {
  for (const key of Object.keys(data)) if (!KNOWN_FRONTMATTER_FIELDS.has(key)) report([key], `unknown frontmatter field '${key}'`);
});

// Checked for every SKILL.md: the version is published whether or not the skill is a package.
export const packageVersion = defineSkillMdRule('package/version', 'use MAJOR.MINOR.PATCH, e.g. 1.0.0', ({ data }, report) => {
  if (typeof data.version === 'string' && !semverValid(data.version)) report(['version'], `version '${data.version}' is not a semantic version`);
});
