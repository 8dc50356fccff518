// One function, not the whole package: semver's index loads ~45 modules on every validate.
import semverValid from 'semver/functions/valid.js';
import { defineRule, valueKind } from '../rule.ts';

export const compatibilityLength = defineRule({
  id: 'compatibility/length',
  severity: 'error',
  scope: 'skill-md',
  description: '`compatibility` is 1–500 characters.',
  hint: 'state the required environment briefly',
  check({ data }, report) {
    if (typeof data.compatibility === 'string' && (data.compatibility.length === 0 || data.compatibility.length > 500)) {
      report(['compatibility'], `compatibility must be 1–500 characters (${data.compatibility.length} chars)`);
    }
  },
});

export const metadataNested = defineRule({
  id: 'metadata/nested',
  severity: 'warning',
  scope: 'skill-md',
  description: '`metadata` should map strings to strings; nested values are accepted.',
  hint: 'metadata maps strings to strings; quote the value or flatten it',
  check({ data }, report) {
    if (!data.metadata || typeof data.metadata !== 'object' || Array.isArray(data.metadata)) return;
    for (const [key, value] of Object.entries(data.metadata)) {
      if (typeof value !== 'string') report(['metadata', key], `metadata.${key} is ${valueKind(value)}, not a string`);
    }
  },
});

// Checked for every SKILL.md: the version is published whether or not the skill is a package.
export const packageVersion = defineRule({
  id: 'package/version',
  severity: 'error',
  scope: 'skill-md',
  description: '`version` must be a semantic version.',
  hint: 'use MAJOR.MINOR.PATCH, e.g. 1.0.0',
  check({ data }, report) {
    if (typeof data.version === 'string' && !semverValid(data.version)) report(['version'], `version '${data.version}' is not a semantic version`);
  },
});
