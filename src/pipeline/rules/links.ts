import { closest } from '../../core/suggest.ts';
import { defineRule, type RegistryFolder } from './rule.ts';

/**
 * Links between skills. A skill's own links are body/broken-link's; a link out of its folder
 * needs every other skill folder to check, so it is checked across the registry, after every
 * folder is read. Unlike the other rules across skills it keeps nothing out by itself: a broken
 * link is a warning, and only a registry that makes it an error rejects the skill, as it would
 * for any error of the skill's own.
 */

/** Every place a link may name: each skill folder, each of its files and the folders on the way to them. */
function placesOf(folders: readonly RegistryFolder[]): Set<string> {
  const places = new Set<string>();
  const addWithParents = (path: string) => {
    for (let end = path.length; end > 0 && !places.has(path.slice(0, end)); end = path.lastIndexOf('/', end - 1)) places.add(path.slice(0, end));
  };
  for (const folder of folders) {
    addWithParents(folder.dir);
    for (const file of folder.files ?? []) addWithParents(`${folder.dir}/${file}`);
  }
  return places;
}

/** The skill folder a path lies in, the deepest one for a folder inside another. */
function folderOf(target: string, byDir: ReadonlyMap<string, RegistryFolder>): RegistryFolder | undefined {
  for (let cut = target.length; cut > 0; cut = target.lastIndexOf('/', cut - 1)) {
    const folder = byDir.get(target.slice(0, cut));
    if (folder) return folder;
  }
  return undefined;
}

export const registryBrokenLink = defineRule({
  id: 'registry/broken-link',
  severity: 'warning',
  scope: 'registry-links',
  description: "A Markdown link in a skill's documents points into the skills folder, outside the skill, at a skill or a file the registry does not have (`../no-such-skill/SKILL.md`).",
  hint: "fix the link to name another skill's folder or one of its files (relative to the file the link is in, and case-sensitive), or remove it",
  check({ folders }, report) {
    if (!folders.some((f) => f.links?.length)) return;
    const places = placesOf(folders);
    const byDir = new Map(folders.map((f) => [f.dir, f]));
    const byName = new Map<string, RegistryFolder[]>();
    for (const f of folders) {
      const name = f.dir.slice(f.dir.lastIndexOf('/') + 1);
      byName.set(name, [...(byName.get(name) ?? []), f]);
    }
    for (const folder of folders) {
      for (const link of folder.links ?? []) {
        if (places.has(link.target)) continue;
        const at = { file: link.file, line: link.line, column: link.column };
        const owner = folderOf(link.target, byDir);
        // A folder whose files are not known may have any file.
        if (owner && owner.files === undefined) continue;
        if (owner) {
          report(folder, at, `the link '${link.destination}' points to ${link.target}, which ${owner.member ? `skill '${owner.member.draft.name}'` : `the skill in ${owner.dir}`} does not have`, {
            hint: `link to a file the skill has, such as ${relativeTo(`${folder.dir}/${link.file}`, owner.file)} (paths are case-sensitive)`,
            // A report on that skill's folder alone shows the links into it that it breaks.
            related: [{ file: owner.file, line: 1, column: 1, message: 'the skill the link points into' }],
          });
          continue;
        }
        // No skill there. The folder name after the deepest place that is there is the one the
        // link means: a misspelt or renamed skill, perhaps, which "did you mean" can name.
        const segments = link.target.split('/');
        let known = segments.length - 1;
        while (known > 0 && !places.has(segments.slice(0, known).join('/'))) known--;
        const named = segments[known] ?? '';
        const guess = closest(named, byName.keys());
        const meant = guess === undefined ? undefined : byName.get(guess)?.[0];
        const suggestion = meant && [`${meant.dir}/${segments.slice(known + 1).join('/')}`.replace(/\/$/, ''), meant.file].find((p) => places.has(p));
        report(folder, at, `the link '${link.destination}' points to ${link.target}, but no skill of the registry is there`, {
          ...(suggestion ? { hint: `did you mean '${relativeTo(`${folder.dir}/${link.file}`, suggestion)}'? A link is relative to the file it is in` } : {}),
        });
      }
    }
  },
});

/** `to` as a link written in the file `from` (both from the registry root): `../semver-tool/SKILL.md`. */
function relativeTo(from: string, to: string): string {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let common = 0;
  while (common < a.length && common < b.length - 1 && a[common] === b[common]) common++;
  return [...Array<string>(a.length - common).fill('..'), ...b.slice(common)].join('/');
}

/** The rules over the links between skills, in the order they run; the registry engine (./check-registry.ts) runs them. */
export const LINK_RULES = [registryBrokenLink] as const;
