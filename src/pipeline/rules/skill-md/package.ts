import { SCRIPT_EXTENSION_LIST, SCRIPT_LANGUAGES } from '../../../core/script-language.ts';
import { extensionOf } from '../../../scanner/magic.ts';
import { CODE_EXTENSIONS, entryCandidates, normaliseResourcePath } from '../../model.ts';
import { defineRule, type FieldPath, type SkillMdContext } from '../rule.ts';

/** The `resources` mapping of an extended package, when it is one. */
const resourcesOf = ({ data, isPackage }: SkillMdContext): Record<string, unknown> | undefined =>
  isPackage && data.resources && typeof data.resources === 'object' ? (data.resources as Record<string, unknown>) : undefined;

/** Every string path under `resources`, with where it sits in the frontmatter. */
function* resourcePaths(resources: Record<string, unknown>): Generator<{ group: string; raw: string; where: FieldPath }> {
  for (const [group, value] of Object.entries(resources)) {
    const list: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    for (const [i, raw] of list.entries()) {
      if (typeof raw === 'string') yield { group, raw, where: typeof value === 'string' ? ['resources', group] : ['resources', group, i] };
    }
  }
}

export const requiredField = defineRule({
  id: 'package/required-field',
  severity: 'error',
  scope: 'skill-md',
  description: 'A field the registry config lists in `requiredPackageFields` is missing.',
  hint: 'add the field to the frontmatter',
  check({ data, isPackage, config }, report) {
    if (!isPackage) return;
    for (const field of config.requiredPackageFields) {
      if (!(field in data)) report([], `this registry requires '${field}' in extended packages`, { hint: `add \`${field}:\` to the frontmatter` });
    }
  },
});

export const resourceMissing = defineRule({
  id: 'package/resource-missing',
  severity: 'error',
  scope: 'skill-md',
  description: 'A `resources` path does not exist in the skill.',
  hint: 'add the file or fix the path',
  check(ctx, report) {
    const resources = resourcesOf(ctx);
    if (!resources) return;
    const paths = new Set(ctx.src.files.map((f) => f.path));
    const folders = new Set(ctx.src.files.flatMap((f) => f.path.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
    for (const { group, raw, where } of resourcePaths(resources)) {
      const normal = normaliseResourcePath(raw);
      if (normal !== undefined && !paths.has(normal) && !folders.has(normal.replace(/\/$/, ''))) report(where, `resources.${group} '${raw}' does not exist in the skill`);
    }
  },
});

export const resourceEscape = defineRule({
  id: 'package/resource-escape',
  severity: 'error',
  scope: 'skill-md',
  description: 'A `resources` path points outside the skill folder, or separates folders with `\\` (a Windows path).',
  hint: 'use a path relative to the skill folder, like ./scripts/execute.ts',
  check(ctx, report) {
    const resources = resourcesOf(ctx);
    if (!resources) return;
    for (const { group, raw, where } of resourcePaths(resources)) {
      if (normaliseResourcePath(raw) !== undefined) continue;
      // A Windows path (`.\scripts\execute.ts`) stays inside the skill: only its separators are
      // wrong, and "points outside" would send the author looking for the wrong mistake.
      const slashed = raw.replaceAll('\\', '/');
      if (raw.includes('\\') && normaliseResourcePath(slashed) !== undefined) {
        report(where, `resources.${group} '${raw}' uses \`\\\` between folders; paths use \`/\` on every system`, { hint: `write '${slashed}'` });
      } else report(where, `resources.${group} '${raw}' points outside the skill folder`);
    }
  },
});

export const codeOutsideScripts = defineRule({
  id: 'package/code-outside-scripts',
  severity: 'error',
  scope: 'skill-md',
  description: 'A skill that declares `resources` keeps executable code under scripts/ only.',
  hint: 'move it under scripts/; packages that declare resources keep all code there',
  check(ctx, report) {
    if (!resourcesOf(ctx)) return;
    for (const f of ctx.src.files) {
      if (CODE_EXTENSIONS.has(extensionOf(f.path)) && !f.path.startsWith('scripts/') && !f.path.startsWith('tests/')) {
        report({ file: f.path, line: 1, column: 1 }, `executable code '${f.path}' lies outside scripts/`);
      }
    }
  },
});

export const entryMissing = defineRule({
  id: 'package/entry-missing',
  severity: 'error',
  scope: 'skill-md',
  description: 'An extended package with scripts needs a `resources.entry` when it has several entry candidates.',
  hint: 'set resources.entry to the script that runs the skill',
  check(ctx, report) {
    const resources = resourcesOf(ctx);
    if (!resources || resources.entry) return;
    const candidates = entryCandidates(ctx.src);
    if (candidates.length > 1) report(['resources'], `scripts/ holds ${candidates.length} programs (${candidates.join(', ')}) and resources.entry names none`);
  },
});

export const entryNotRunnable = defineRule({
  id: 'package/entry-not-runnable',
  severity: 'error',
  scope: 'skill-md',
  description: "`resources.entry` names a file the runner cannot start: it picks the interpreter by the file's extension.",
  hint: `give the entry its language's extension (${SCRIPT_EXTENSION_LIST}), such as scripts/run.sh`,
  check(ctx, report) {
    const entry = resourcesOf(ctx)?.entry;
    if (typeof entry !== 'string') return;
    const path = normaliseResourcePath(entry);
    // A missing or escaping entry has its own rules; this one is about a file that is there.
    if (path === undefined || !ctx.src.files.some((f) => f.path === path)) return;
    if (!SCRIPT_LANGUAGES[extensionOf(path)]) report(['resources', 'entry'], `resources.entry '${entry}' is not a program the runner can start, so the skill would be published with nothing to run`);
  },
});

export const legacyPermissions = defineRule({
  id: 'package/legacy-permissions',
  severity: 'warning',
  scope: 'skill-md',
  description: '`permissions` is the legacy field; migrate it into `security`.',
  hint: 'move network and filesystem settings into `security` (skilldex migrate does this)',
  check({ data, isPackage }, report) {
    if (isPackage && data.permissions !== undefined) report(['permissions'], '`permissions` is the legacy field');
  },
});
