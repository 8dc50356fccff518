/*
 * Site URLs, checked without zod: `skilldex build --site-url` checks one before deciding whether
 * anything changed, and a no-op build loads none of the schemas.
 */

/**
 * Why `url` cannot be where a site is served, or undefined when it can: it must be an absolute
 * http(s) URL without query, fragment or credentials, as it ends up in `index.json` and every
 * absolute link. (The site build also wants its final `/`, which it adds itself.)
 */
export function siteUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return 'not a URL';
  const parsed = new URL(url);
  if (!/^https?:$/.test(parsed.protocol)) return 'not http(s)';
  if (parsed.search || parsed.hash || parsed.username || parsed.password) return 'has a query, fragment or credentials';
  return undefined;
}

/** Why `url` cannot be the site's URL, or undefined when it can: a registry's site URL ending in `/`. */
export function builtSiteUrlProblem(url: string): string | undefined {
  return siteUrlProblem(url) ?? (new URL(url).pathname.endsWith('/') ? undefined : 'does not end in /');
}

/**
 * `value` as the site URL the build needs: an absolute http(s) URL ending in `/`, without query,
 * fragment or credentials. A path without its final `/` gets one; anything else would put broken
 * links on every page, so it is refused (undefined).
 *
 * @example
 * normaliseSiteUrl('https://user.github.io/repo') // 'https://user.github.io/repo/'
 */
export function normaliseSiteUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return builtSiteUrlProblem(url.href) === undefined ? url.href : undefined;
}
