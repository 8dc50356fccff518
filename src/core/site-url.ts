import { siteUrlProblem } from './schemas/config.ts';

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
