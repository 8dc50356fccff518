/**
 * "View source", "Edit this skill" and "Report an issue" links from the registry's `repository`
 * setting. The three big forges spell these paths differently; a host is recognised by its name
 * (github.com, gitlab.com or a host named gitlab.*, codeberg.org or a host named gitea.* / forgejo.*),
 * anything else gets the GitHub spelling, which Gitea and Forgejo also redirect.
 */
export interface SourceLinks {
  source: string;
  edit: string;
  issue: string;
}

type Forge = 'github' | 'gitlab' | 'gitea';

function forgeOf(host: string): Forge {
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab';
  if (host === 'codeberg.org' || host.startsWith('gitea.') || host.startsWith('forgejo.')) return 'gitea';
  return 'github';
}

/** The repository's web address without a trailing `/` or `.git`, and its forge; undefined unless a plain http(s) URL. */
function repositoryBase(repository: { url: string } | undefined): { base: string; forge: Forge } | undefined {
  if (!repository) return undefined;
  let url: URL;
  try {
    url = new URL(repository.url);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return undefined;
  return { base: `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\.git$/, '')}`, forge: forgeOf(url.hostname) };
}

/**
 * The links for one skill, or undefined when there is no repository or its URL is not a plain
 * http(s) web address (a config value must not smuggle in `javascript:` or credentials).
 */
export function sourceLinks(
  repository: { url: string; branch: string } | undefined,
  skill: { name: string; sourcePath: string; sourceFile: string },
): SourceLinks | undefined {
  const repo = repositoryBase(repository);
  if (!repo || !repository) return undefined;
  const { base } = repo;
  const branch = encodeURIComponent(repository.branch);
  const dir = skill.sourcePath.split('/').map(encodeURIComponent).join('/');
  const file = `${dir}/${encodeURIComponent(skill.sourceFile)}`;
  const title = encodeURIComponent(`${skill.name}: `);
  switch (repo.forge) {
    case 'gitlab':
      return { source: `${base}/-/tree/${branch}/${dir}`, edit: `${base}/-/edit/${branch}/${file}`, issue: `${base}/-/issues/new?issue%5Btitle%5D=${title}` };
    case 'gitea':
      return { source: `${base}/src/branch/${branch}/${dir}`, edit: `${base}/_edit/${branch}/${file}`, issue: `${base}/issues/new?title=${title}` };
    default:
      return { source: `${base}/tree/${branch}/${dir}`, edit: `${base}/edit/${branch}/${file}`, issue: `${base}/issues/new?title=${title}` };
  }
}

/**
 * The address a repository file's path is appended to, to show it in the forge's web view
 * (`https://github.com/acme/skills/blob/main/`), or undefined as for {@link sourceLinks}.
 */
export function repositoryFilesBase(repository: { url: string; branch: string } | undefined): string | undefined {
  const repo = repositoryBase(repository);
  if (!repo || !repository) return undefined;
  const branch = encodeURIComponent(repository.branch);
  switch (repo.forge) {
    case 'gitlab':
      return `${repo.base}/-/blob/${branch}/`;
    case 'gitea':
      return `${repo.base}/src/branch/${branch}/`;
    default:
      return `${repo.base}/blob/${branch}/`;
  }
}
