import { isAbsolute, relative, resolve, sep } from 'node:path';
import { RegistryError } from '../../core/errors/registry-error.ts';

/**
 * `base` joined with `segments`, proven to sit strictly inside `base` once resolved. Every folder
 * the client computes from registry data (a skill name, a file path) goes through this, so even a
 * string that slipped past the schemas cannot name `..`, an absolute path or `base` itself.
 *
 * @example
 * containedPath('/project/.claude/skills', 'pdf');       // '/project/.claude/skills/pdf'
 * containedPath('/project/.claude/skills', '../../etc'); // throws INVALID_PATH
 */
export function containedPath(base: string, ...segments: string[]): string {
  const root = resolve(base);
  const target = resolve(root, ...segments);
  const rel = relative(root, target);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new RegistryError('INVALID_PATH', `${JSON.stringify(segments.join('/'))} resolves to ${target}, outside ${root}`, {
      hint: 'the registry published a name or path that is not a plain relative name; report it to the registry maintainers',
    });
  }
  return target;
}
