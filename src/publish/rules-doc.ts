import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { anchor } from '../pipeline/reporters.ts';
import { ALL_RULES, type RuleMeta } from '../pipeline/rules/all-rules.ts';
import { replaceBetweenMarkers } from '../pipeline/rules/table.ts';

/**
 * The rules reference, docs/rules.md, generated from the one rule list (validator, publish and
 * scanner rules) so the documentation cannot drift from the code. Each row carries an anchor named after the rule
 * id (`name/folder-mismatch` → `#name-folder-mismatch`): the validator's hints link there.
 *
 * Regenerate with `npm run schemas` (or `node src/publish/rules-doc.ts`); a test fails while the
 * file is stale.
 */

/** Rule groups by id prefix, in the order the validator meets them, each with the page that explains the format. */
const GROUPS: readonly { title: string; prefixes: readonly string[]; intro: string; engine?: RuleMeta['engine'] }[] = [
  { title: 'Discovery', prefixes: ['discovery'], intro: 'Where skills may sit under `skills/` ([skill-md.md](skill-md.md#where-a-skill-lives)).' },
  { title: 'Files', prefixes: ['files'], intro: 'Every file of every skill, whatever its format. Sizes are set under `limits` in `skilldex.config.json`.' },
  { title: 'SKILL.md frontmatter and body', prefixes: ['frontmatter', 'name', 'description', 'text', 'compatibility', 'metadata', 'body'], intro: 'The Agent Skills format ([skill-md.md](skill-md.md)). `name/*` rules apply to skill.json names too, with snake_case instead of kebab-case.' },
  { title: 'Extended package', prefixes: ['package'], intro: 'SKILL.md files that use the extended fields ([extended-package.md](extended-package.md)).' },
  { title: 'Input and output schemas', prefixes: ['schema'], intro: 'The JSON Schemas a skill declares (`input`/`output` in skill.json, `input_schema`/`output_schema` in SKILL.md).' },
  { title: 'skill.json and pipelines', prefixes: ['skill-json', 'pipeline'], intro: 'Function skills ([skill-json.md](skill-json.md)).' },
  { title: 'Across the registry', prefixes: ['registry'], intro: 'Checks that compare skills with each other; they run on every build, also in pull-request mode.' },
  { title: 'Security', prefixes: ['security'], intro: 'The static scanner\'s verdict; its own rules are listed in [security.md](security.md).' },
  { title: 'Earlier versions', prefixes: ['versions'], intro: 'A build publishes every earlier version of a skill from git history ([registry-format.md](registry-format.md#versions)); these report what it had to leave out.' },
  { title: 'Pull requests', prefixes: ['publish'], intro: 'Only in pull-request mode (`skilldex validate --changed-since <ref>` or `--against-index <url>`).' },
  {
    title: 'Security scanner',
    prefixes: [],
    engine: 'scanner',
    intro:
      'The scanner\'s own rules, on its own severity scale (`info`, `warn`, `high`, `critical`); each is explained in [security.md](security.md). `skilldex scan` reports them under these ids; a build reports them as `security/finding` or `security/blocked`, except the ones a validator rule above already reports, so one problem gives one diagnostic.',
  },
];

interface Row {
  id: string;
  severity: RuleMeta['severity'];
  description: string;
  engine?: RuleMeta['engine'];
  reportedAs?: RuleMeta['reportedAs'];
}

const describe = (r: Row): string =>
  r.engine === 'scanner'
    ? `${r.description.replace(/</g, '&lt;')} ([details](security.md#${anchor(r.id)}))${r.reportedAs ? `; in a build reported as [\`${r.reportedAs}\`](#${anchor(r.reportedAs)})` : ''}.`
    : r.description;
const row = (r: Row) => `| <a id="${anchor(r.id)}"></a>\`${r.id}\` | ${r.severity} | ${describe(r).replace(/\|/g, '\\|')} |`;

/** The generated part of docs/rules.md: one table per group, every rule with its anchor. */
function rulesReference(): string {
  const all: Row[] = ALL_RULES.map((r) => ({ ...r, description: r.docs.description }));
  const prefix = (id: string) => id.slice(0, id.indexOf('/'));
  const inGroup = (group: (typeof GROUPS)[number], r: Row) => (group.engine ? r.engine === group.engine : r.engine !== 'scanner' && group.prefixes.includes(prefix(r.id)));
  const grouped = GROUPS.map((group) => ({ ...group, rules: all.filter((r) => inGroup(group, r)) }));
  const orphans = all.filter((r) => !GROUPS.some((group) => inGroup(group, r)));
  if (orphans.length > 0) throw new Error(`rules without a group in src/publish/rules-doc.ts: ${orphans.map((r) => r.id).join(', ')}`);
  return grouped
    .map((group) => [`### ${group.title}`, '', group.intro, '', '| rule | default | what it checks |', '| --- | --- | --- |', ...group.rules.map(row)].join('\n'))
    .join('\n\n');
}

/**
 * The generated part of docs/security.md: one section per scanner rule, with the anchor the
 * scanner's hints and the site link to, and, for a problem a validator rule reports in a build,
 * that rule.
 */
function securityRulesReference(): string {
  return ALL_RULES.filter((r) => r.engine === 'scanner')
    .map((r) =>
      [
        `<a id="${anchor(r.id)}"></a>`,
        `## ${r.id}`,
        `**Severity:** \`${r.severity}\` — ${r.docs.description}.`,
        r.docs.explanation ?? '',
        `**Fix:** ${r.hint ?? ''}`,
        ...(r.reportedAs ? [`In a build, the validator reports this problem as [\`${r.reportedAs}\`](rules.md#${anchor(r.reportedAs)}), so it is not repeated as a \`security/finding\`.`] : []),
      ].join('\n\n'),
    )
    .join('\n\n');
}

export const RULES_FILE = join(import.meta.dirname, '..', '..', 'docs', 'rules.md');
export const SECURITY_FILE = join(import.meta.dirname, '..', '..', 'docs', 'security.md');

/** docs/security.md with its generated rule sections brought up to date. */
export async function renderSecurityDoc(file = SECURITY_FILE): Promise<string> {
  return replaceBetweenMarkers(await readFile(file, 'utf8'), 'security-rules', securityRulesReference());
}

/** docs/rules.md with its generated part brought up to date. */
export async function renderRulesDoc(file = RULES_FILE): Promise<string> {
  return replaceBetweenMarkers(await readFile(file, 'utf8'), 'rules', rulesReference());
}

if (import.meta.main) {
  await writeFile(RULES_FILE, await renderRulesDoc());
  await writeFile(SECURITY_FILE, await renderSecurityDoc());
  console.log(`updated ${RULES_FILE} and ${SECURITY_FILE}`);
}
