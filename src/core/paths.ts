/**
 * Path rules for files inside a skill (discovery RFC): relative, `/` separated,
 * no `..`, printable ASCII, none of `\ ? # [ ] % : " | * < >`. Published URLs are built from these paths, so a
 * path that passes here cannot escape a skill's folder on a server or on disk. Each name must also
 * be one every file system an install lands on can hold: at most 255 characters, not a Windows
 * device name, not ending in a dot or a space.
 */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'is empty';
  if (path.startsWith('/')) return 'is absolute';
  if (/[^\x20-\x7e]/.test(path)) return 'has characters outside printable ASCII';
  // `?` `#` `%` change what a URL built from the path asks for; `[ ]` are not allowed in one;
  // Windows refuses `\ : " | * < >` in a name.
  if (/[\\?#[\]%:"|*<>]/.test(path)) return 'contains one of \\ ? # [ ] % : " | * < >';
  const segments = path.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return 'has a `.` or `..` segment';
  if (segments.some((s) => s === '')) return 'has an empty segment';
  // File systems cap a name at 255 bytes (printable ASCII: characters); a longer one cannot be installed anywhere.
  const long = segments.find((s) => s.length > MAX_FILE_NAME_LENGTH);
  if (long) return `has a name of ${long.length} characters (at most ${MAX_FILE_NAME_LENGTH} fit a file system)`;
  // Windows cannot create these at all, nor keep a trailing dot or space (it drops them, so `a.` and `a` are one file).
  const reserved = segments.find(isWindowsDeviceName);
  if (reserved) return `uses '${reserved}', a device name on Windows, where no file can have it`;
  // A version-control folder in an installed skill is executable configuration: git runs
  // `core.fsmonitor` or `core.hooksPath` from `.git/config` the next time anyone (or a shell prompt)
  // runs git there. Case-insensitive, as file systems on macOS and Windows are.
  if (segments.some((s) => VCS_FOLDERS.has(s.toLowerCase().replace(/[. ]+$/, '')))) return 'is inside a version-control folder (.git, .hg, .svn)';
  if (segments.some((s) => /[. ]$/.test(s))) return 'has a name ending in a dot or a space, which Windows drops';
  return undefined;
}

const VCS_FOLDERS = new Set(['.git', '.hg', '.svn', '.bzr', '_darcs', '.jj']);

const MAX_FILE_NAME_LENGTH = 255;
/** CON, PRN, AUX, NUL, COM0–9 and LPT0–9, in any case and with any extension (`aux.txt` too). */
const WINDOWS_DEVICES = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\.[^/]*)?$/i;

/** How a message names the devices, once for the validator and the runtime. */
export const WINDOWS_DEVICE_NAMES = 'CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9';

/**
 * Whether one file or folder name is a Windows device name, which Windows cannot create as a
 * file or folder (opening `con` or `aux.md` there opens the device), whatever the case and the
 * extension.
 *
 * @example
 * isWindowsDeviceName('Aux.md'); // true
 * isWindowsDeviceName('console'); // false
 */
export const isWindowsDeviceName = (name: string): boolean => WINDOWS_DEVICES.test(name);

/**
 * The first path listed twice, if any. A manifest whose file list repeats a path is not what a
 * build writes (each file once, by its path), so a client refuses it rather than guess which
 * entry is meant.
 */
export function repeatedPath(paths: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const path of paths) {
    if (seen.has(path)) return path;
    seen.add(path);
  }
  return undefined;
}

/**
 * Resolves a `/`-separated relative path against base segments, the way a browser resolves `.`
 * and `..`: undefined when `..` climbs above the base, or when nothing is left.
 */
export function resolveSegments(base: readonly string[], relative: string): string[] | undefined {
  const out = [...base];
  for (const part of relative.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.length > 0 ? out : undefined;
}

/**
 * A folder below a registry's root as its config may name one (`skillsDir`): relative, `/`
 * separated, of letters, digits, `.`, `_` and `-`, with no `.` or `..` segment. A pull request
 * that pointed it at `..` or `/etc` would publish files from outside the repository.
 */
export const isFolderBelowRoot = (path: string): boolean =>
  /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*\/?$/.test(path) && !path.split('/').some((s) => s === '.' || s === '..');
