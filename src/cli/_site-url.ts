import { normaliseSiteUrl } from '../core/site-url.ts';
import { CliError, EXIT } from './_errors.ts';
import { printable } from './_output.ts';

/**
 * The site URL a command was given (`--site-url`, or the environment's), as the build needs it,
 * or undefined when none was given. One that cannot be where a site is served is a usage error,
 * for every command that takes it: it ends up in absolute links (build) or SARIF help links (scan).
 */
export function siteUrlOption(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  const siteUrl = normaliseSiteUrl(given);
  if (siteUrl === undefined) {
    throw new CliError('E_SITE_URL', `${printable(given)} is not a usable site URL`, { hint: 'give the absolute http(s) URL the registry is served at, e.g. https://skills.example.org/ or https://user.github.io/repo/ (no query, fragment or credentials)', exitCode: EXIT.usage });
  }
  return siteUrl;
}
