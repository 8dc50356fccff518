import { reportedRule } from './rule.ts';

// Discovery decides which folders are skills before any of them is read (src/pipeline/discover.ts),
// so it reports these itself.
const reportedBy = 'discovery (src/pipeline/discover.ts)';

export const discoveryAmbiguous = reportedRule({
  id: 'discovery/ambiguous',
  severity: 'error',
  description: 'A folder holds both SKILL.md and skill.json.',
  hint: 'keep one declaration; `skilldex convert` moves a SKILL.md body into prompt.md for skill.json',
  reportedBy,
});

export const discoveryNestedSkill = reportedRule({
  id: 'discovery/nested-skill',
  severity: 'warning',
  description: 'A skill folder sits inside another skill; it is published as part of the outer skill only.',
  hint: 'move it to its own folder under skills/',
  reportedBy,
});

export const discoveryTooDeep = reportedRule({
  id: 'discovery/too-deep',
  severity: 'error',
  description: 'A skill sits deeper than one category folder below skills/.',
  hint: 'use skills/<name>/ or skills/<category>/<name>/',
  reportedBy,
});

export const discoveryMisnamedDeclaration = reportedRule({
  id: 'discovery/misnamed-declaration',
  severity: 'error',
  description: 'A folder holds `skill.md`, `Skill.md`, `SKILL.json` or the like: a declaration whose name differs only in case, which is not read.',
  hint: 'rename it to SKILL.md (or skill.json): the names are case-sensitive',
  reportedBy,
});

export const discoveryNoDeclaration = reportedRule({
  id: 'discovery/no-declaration',
  severity: 'warning',
  description: 'A folder below skills/ holds files but no SKILL.md or skill.json anywhere in it (a skill whose declaration was deleted or renamed, or notes left in a category folder), so none of them is published.',
  hint: 'add the SKILL.md (or skill.json) the folder lost, move the files into a skill folder, or remove them',
  reportedBy,
});
