import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { anchorOf } from '../core/rule.ts';
import { ALL_RULES, COVERED_SCANNER_RULES, type AnyRule } from '../pipeline/rules/all-rules.ts';
import { replaceBetweenMarkers } from '../core/markers.ts';

/**
 * The rule references generated from the one rule list (src/pipeline/rules/all-rules.ts), so the
 * documentation cannot drift from the code: docs/rules.md's tables, docs/security.md's rule
 * sections and CONTRIBUTING.md's rule table. Each rule's row carries an anchor named after its id
 * (`name/folder-mismatch` → `#name-folder-mismatch`): the validator's hints link there.
 *
 * Regenerate with `npm run schemas` (or `node src/publish/rules-doc.ts`); a test fails while a
 * file is stale.
 */

/** Rule groups by id prefix, in the order the validator meets them, each with the page that explains the format. */
const GROUPS: readonly { title: string; prefixes: readonly string[]; intro: string; scanner?: true }[] = [
  { title: 'Discovery', prefixes: ['discovery'], intro: 'Where skills may sit under `skills/` ([skill-md.md](skill-md.md#where-a-skill-lives)).' },
  { title: 'Files', prefixes: ['files'], intro: 'Every file of every skill, whatever its format. Sizes are set under `limits` in `skilldex.config.json`.' },
  { title: 'SKILL.md frontmatter and body', prefixes: ['frontmatter', 'name', 'description', 'text', 'compatibility', 'metadata', 'tags', 'body'], intro: 'The Agent Skills format ([skill-md.md](skill-md.md)). `name/*` rules apply to skill.json names too, with snake_case instead of kebab-case.' },
  { title: 'Extended package', prefixes: ['package'], intro: 'SKILL.md files that use the extended fields ([extended-package.md](extended-package.md)).' },
  { title: 'Input and output schemas', prefixes: ['schema'], intro: 'The JSON Schemas a skill declares (`input`/`output` in skill.json, `input_schema`/`output_schema` in SKILL.md).' },
  { title: 'skill.json and pipelines', prefixes: ['skill-json', 'pipeline'], intro: 'Function skills ([skill-json.md](skill-json.md)).' },
  { title: 'Checks that could not run', prefixes: ['internal'], intro: 'A skill whose files could not be read to the end (one was removed or replaced while it was being read) or whose checks stopped on an error is held back with `internal/check-failed`, which says what failed. A skill that a problem leaves with nothing to publish is held back with `internal/held-back` when skilldex.config.json turned the rule that found the problem off or made it a warning. Every other skill is checked as usual.' },
  { title: 'Across the registry', prefixes: ['registry'], intro: 'Checks that compare skills with each other; they run on every build, also in pull-request mode.' },
  { title: 'Security', prefixes: ['security'], intro: 'The static scanner\'s verdict; its own rules are listed in [security.md](security.md).' },
  { title: 'Earlier versions', prefixes: ['versions'], intro: 'A build publishes every earlier version of a skill from git history ([registry-format.md](registry-format.md#versions)); these report what it had to leave out.' },
  { title: 'Pull requests', prefixes: ['publish'], intro: 'Only in pull-request mode (`skilldex validate --changed-since <ref>` or `--against-index <url>`).' },
  {
    title: 'Security scanner',
    prefixes: [],
    scanner: true,
    intro:
      'The scanner\'s own rules, on its own severity scale (`info`, `warn`, `high`, `critical`); each is explained in [security.md](security.md). `skilldex scan` reports them under these ids; a build reports them as `security/finding` or `security/blocked`, except the ones a validator rule above already reports, so one problem gives one diagnostic.',
  },
];

const prefix = (id: string) => id.slice(0, id.indexOf('/'));
const inGroup = (group: (typeof GROUPS)[number], r: AnyRule) =>
  group.scanner ? r.meta.engine === 'scanner' : r.meta.engine !== 'scanner' && group.prefixes.includes(prefix(r.meta.id));

/** Every group with its rules, in the order of the list; a rule in no group is a mistake in this file. */
function groupedRules() {
  const orphans = ALL_RULES.filter((r) => !GROUPS.some((group) => inGroup(group, r)));
  if (orphans.length > 0) throw new Error(`rules without a group in src/publish/rules-doc.ts: ${orphans.map((r) => r.meta.id).join(', ')}`);
  return GROUPS.map((group) => ({ ...group, rules: ALL_RULES.filter((r) => inGroup(group, r)) }));
}

function describe(r: AnyRule): string {
  if (r.meta.engine !== 'scanner') return r.meta.docs.description;
  const covered = COVERED_SCANNER_RULES.get(r.meta.id);
  return `${r.meta.docs.description.replace(/</g, '&lt;')} ([details](security.md#${anchorOf(r.meta.id)}))${covered ? `; in a build reported as [\`${covered.meta.id}\`](#${anchorOf(covered.meta.id)})` : ''}.`;
}
const row = (r: AnyRule) => `| <a id="${anchorOf(r.meta.id)}"></a>\`${r.meta.id}\` | ${r.meta.severity} | ${describe(r).replace(/\|/g, '\\|')} |`;

/** The generated part of docs/rules.md: one table per group, every rule with its anchor. */
function rulesReference(): string {
  return groupedRules()
    .map((group) => [`### ${group.title}`, '', group.intro, '', '| rule | default | what it checks |', '| --- | --- | --- |', ...group.rules.map(row)].join('\n'))
    .join('\n\n');
}

/**
 * The generated part of docs/security.md: one section per scanner rule, with the anchor the
 * scanner's hints and the site link to, and, for a problem a validator rule reports in a build,
 * that rule.
 */
function securityRulesReference(): string {
  return ALL_RULES.flatMap((r) => (r.meta.engine === 'scanner' ? [r.meta] : []))
    .map((meta) => {
      const covered = COVERED_SCANNER_RULES.get(meta.id);
      return [
        `<a id="${anchorOf(meta.id)}"></a>`,
        `## ${meta.id}`,
        `**Severity:** \`${meta.severity}\` — ${meta.docs.description}.`,
        meta.docs.explanation,
        `**Fix:** ${meta.hint}`,
        ...(covered ? [`In a build, the validator reports this problem as [\`${covered.meta.id}\`](rules.md#${anchorOf(covered.meta.id)}), so it is not repeated as a \`security/finding\`.`] : []),
      ].join('\n\n');
    })
    .join('\n\n');
}

/**
 * The generated rule table of CONTRIBUTING.md: every group with the ids of its rules, each linked
 * to its row in docs/rules.md (or its section in docs/security.md), so a contributor who meets an
 * id finds it.
 */
function contributingRulesTable(): string {
  const link = (r: AnyRule) => `[\`${r.meta.id}\`](docs/${r.meta.engine === 'scanner' ? 'security' : 'rules'}.md#${anchorOf(r.meta.id)})`;
  return ['| rules | ids |', '| --- | --- |', ...groupedRules().map((group) => `| ${group.title} | ${group.rules.map(link).join(', ')} |`)].join('\n');
}

const ROOT = join(import.meta.dirname, '..', '..');
export const RULES_FILE = join(ROOT, 'docs', 'rules.md');
export const SECURITY_FILE = join(ROOT, 'docs', 'security.md');
export const CONTRIBUTING_FILE = join(ROOT, 'CONTRIBUTING.md');

/** docs/security.md with its generated rule sections brought up to date. */
export async function renderSecurityDoc(file = SECURITY_FILE): Promise<string> {
  return replaceBetweenMarkers(await readFile(file, 'utf8'), 'security-rules', securityRulesReference());
}

/** docs/rules.md with its generated part brought up to date. */
export async function renderRulesDoc(file = RULES_FILE): Promise<string> {
  return replaceBetweenMarkers(await readFile(file, 'utf8'), 'rules', rulesReference());
}

/** CONTRIBUTING.md with its generated rule table brought up to date. */
export async function renderContributing(file = CONTRIBUTING_FILE): Promise<string> {
  return replaceBetweenMarkers(await readFile(file, 'utf8'), 'rules-table', contributingRulesTable());
}

if (import.meta.main) {
  await writeFile(RULES_FILE, await renderRulesDoc());
  await writeFile(SECURITY_FILE, await renderSecurityDoc());
  await writeFile(CONTRIBUTING_FILE, await renderContributing());
  console.log(`updated ${RULES_FILE}, ${SECURITY_FILE} and ${CONTRIBUTING_FILE}`);
}
