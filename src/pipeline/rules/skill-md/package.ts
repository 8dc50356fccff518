import { entryCandidates, normaliseResourcePath } from '../../model.ts';
import { CODE_EXTENSIONS, extensionOf } from '../files.ts';
import { defineSkillMdRule, type SkillMdContext } from './rule.ts';


/** The `resources` mapping of an extended package, when it is one. */
const resourcesOf = ({ data, isPackage }: SkillMdContext): Record<string, unknown> | undefined =>
  isPackage && data.resources && typeof data.resources === 'object' ? (data.resources as Record<string, unknown>) : undefined;

/** Every string path under `resources`, with where it sits in the frontmatter. */
function* resourcePaths(resources: Record<string, unknown>): Generator<{ group: string; raw: string; where: (string | number)[] }> {
  for (const [group, value] of Object.entries(resources)) {
    const list: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    for (const [i, raw] of list.entries()) {
      if (typeof raw === 'string') yield { group, raw, where: typeof value === 'string' ? ['resources', group] : ['resources', group, i] };
    }
  }
}

export const requiredField = defineSkillMdRule('package/required-field', 'add the field to the frontmatter', ({ data, isPackage, config }, report) => {
  if (!isPackage) return;
  for (const field of config.requiredPackageFields) {
    if (!(field in data)) report([], `this registry requires '${field}' in extended packages`, `add \`${field}:\` to the frontmatter`);
  }
});

export const legacyPermissions = defineSkillMdRule('package/legacy-permissions', 'move network and filesystem settings into `security` (skilldex migrate does this)', ({ data, isPackage }, report) => {
  if (isPackage && data.permissions !== undefined) report(['permissions'], '`permissions` is the legacy field');
});

export const entryMissing = defineSkillMdRule('package/entry-missing', 'set resources.entry to the script that runs the skill', (ctx, report) => {
  const resources = resourcesOf(ctx);
  if (!resources || resources.entry) return;
  const candidates = entryCandidates(ctx.src);
  if (candidates.length > 1) report(['resources'], `scripts/ holds ${candidates.length} programs (${candidates.join(', ')}) and resources.entry names none`);
});

export const resourceEscape = defineSkillMdRule('package/resource-escape', 'use a path relative to the skill folder, like ./scripts/execute.ts', (ctx, report) => {
  const resources = resourcesOf(ctx);
  if (!resources) return;
  for (const { group, raw, where } of resourcePaths(resources)) {
    if (normaliseResourcePath(raw) === undefined) report(where, `resources.${group} '${raw}' points outside the skill folder`);
  }
});

export const resourceMissing = defineSkillMdRule('package/resource-missing', 'add the file or fix the path', (ctx, report) => {
  const resources = resourcesOf(ctx);
  if (!resources) return;
  const paths = new Set(ctx.src.files.map((f) => f.path));
  const folders = new Set(ctx.src.files.flatMap((f) => f.path.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  for (const { group, raw, where } of resourcePaths(resources)) {
    const normal = normaliseResourcePath(raw);
    if (normal !== undefined && !paths.has(normal) && !folders.has(normal.replace(/\/$/, ''))) report(where, `resources.${group} '${raw}' does not exist in the skill`);
  }
});

export const codeOutsideScripts = defineSkillMdRule('package/code-outside-scripts', 'move it under scripts/; packages that declare resources keep all code there', (ctx) => {
  if (!resourcesOf(ctx)) return;
  for (const f of ctx.src.files) {
    if (CODE_EXTENSIONS.has(extensionOf(f.path)) && !f.path.startsWith('scripts/') && !f.path.startsWith('tests/')) {
      ctx.sink.report('package/code-outside-scripts', `${ctx.src.dir}/${f.path}`, { line: 1, column: 1 }, `executable code '${f.path}' lies outside scripts/`, { hint: codeOutsideScripts.meta.hint, skill: ctx.skill });
    }
  }
});
