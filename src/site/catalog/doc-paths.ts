/**
 * The page a skill's Markdown file is rendered on, under the skill's page `skillPath`:
 * `references/guide.md` → `<skillPath>docs/references/guide/`; SKILL.md is the skill's own page.
 * Pure and free of the site's configuration, so the Markdown renderer (on a worker thread too)
 * and the routes (./routes.ts) build these links alike.
 */
export function skillDocPath(skillPath: string, file: string): string {
  if (file === 'SKILL.md') return skillPath;
  return `${skillPath}docs/${file.replace(/\.md$/i, '').split('/').map(encodeURIComponent).join('/')}/`;
}
