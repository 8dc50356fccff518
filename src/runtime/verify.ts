import { visibleControls } from '../core/control-chars.ts';
import { sha256Hex, treeDigest } from '../core/digest.ts';
import { pathProblem } from '../core/paths.ts';
import type { SkillManifest } from '../core/schemas/manifest.ts';
import { RegistryError } from '../core/errors/registry-error.ts';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES } from '../core/client-limits.ts';

/**
 * Digest checks for downloaded skill files (docs/registry-format.md#digests): every file against its `sha256:`
 * digest, and the set as a whole against the tree digest. Browser-safe (WebCrypto).
 */

export { MAX_SKILL_BYTES, MAX_SKILL_FILES };

/** Nothing of such a skill was downloaded, and a retry would read the same manifest. */
const TOO_LARGE_HINT = 'the manifest is most likely forged; nothing of this skill was downloaded. Report it to the registry maintainers';

/**
 * Refuses a manifest that lists more than {@link MAX_SKILL_FILES} files (`MANIFEST_TOO_LARGE`),
 * naming it by `location` (its URL or file). Takes the manifest as parsed JSON, before its
 * shape is checked: counting is all it takes to refuse, and checking half a million entries is
 * what the limit spares.
 *
 * @example
 * checkFileCount(JSON.parse(text), 'https://skills.example.org/skills/pdf.json'); // throws MANIFEST_TOO_LARGE past 10,000 files
 */
export function checkFileCount(raw: unknown, location: string): void {
  const files = raw !== null && typeof raw === 'object' ? (raw as { files?: unknown }).files : undefined;
  if (!Array.isArray(files) || files.length <= MAX_SKILL_FILES) return;
  throw new RegistryError('MANIFEST_TOO_LARGE', `${location} lists ${files.length} files; this client reads at most ${MAX_SKILL_FILES} files of one skill`, { hint: TOO_LARGE_HINT });
}

/**
 * Refuses a skill whose files together declare more than {@link MAX_SKILL_BYTES}
 * (`MANIFEST_TOO_LARGE`). Checked when a manifest is read, so nothing of such a skill is ever
 * downloaded, by any method.
 *
 * @example
 * checkDeclaredSize(manifest, 'https://skills.example.org/skills/pdf.json'); // throws MANIFEST_TOO_LARGE past 256 MiB
 */
export function checkDeclaredSize(manifest: Pick<SkillManifest, 'name' | 'files'>, location: string): void {
  const total = manifest.files.reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_SKILL_BYTES) {
    throw new RegistryError('MANIFEST_TOO_LARGE', `${location} declares ${total} bytes of files for ${manifest.name}; this client reads at most ${MAX_SKILL_BYTES} bytes of one skill`, { hint: TOO_LARGE_HINT });
  }
}

/** One reason a download does not match its manifest. */
export interface VerificationProblem {
  path: string;
  problem: 'missing' | 'unexpected' | 'digest-mismatch' | 'size-mismatch' | 'unsafe-path' | 'tree-digest-mismatch';
  expected?: string;
  actual?: string;
}

/** The `VERIFICATION_FAILED` error for a skill's download, listing the first problems. */
export const verificationFailure = (skill: string, problems: VerificationProblem[]): RegistryError =>
  new RegistryError(
    'VERIFICATION_FAILED',
    `${skill}: downloaded files do not match the manifest (${problems
      .slice(0, 5)
      .map((p) => `${visibleControls(p.path)}: ${p.problem}`)
      .join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''})`,
    { details: problems, hint: 'nothing was written; the registry or a cache between you and it serves altered files — report it to the registry maintainers' },
  );

/**
 * Checks one file's bytes against the manifest entry for `path`.
 *
 * @example
 * await verifyFile(manifest, 'SKILL.md', bytes); // throws VERIFICATION_FAILED on a mismatch
 */
export async function verifyFile(manifest: SkillManifest, path: string, bytes: Uint8Array): Promise<void> {
  const entry = manifest.files.find((file) => file.path === path);
  if (!entry) throw verificationFailure(manifest.name, [{ path, problem: 'unexpected' }]);
  const actual = `sha256:${await sha256Hex(bytes)}`;
  if (actual !== entry.digest) throw verificationFailure(manifest.name, [{ path, problem: 'digest-mismatch', expected: entry.digest, actual }]);
}

/**
 * Checks a complete set of files: exactly the manifest's paths (nothing extra, nothing missing),
 * every size and digest, and the tree digest recomputed from the bytes. Also refuses any manifest
 * path that could escape the skill folder when written to disk. Reports every problem at once.
 *
 * @example
 * await verifySkillFiles(manifest, new Map([['SKILL.md', bytes]]));
 */
export async function verifySkillFiles(manifest: SkillManifest, files: ReadonlyMap<string, Uint8Array>): Promise<void> {
  const problems: VerificationProblem[] = [];
  const expected = new Map(manifest.files.map((file) => [file.path, file]));
  for (const file of manifest.files) {
    const unsafe = pathProblem(file.path);
    if (unsafe) problems.push({ path: file.path, problem: 'unsafe-path', actual: unsafe });
  }
  const hexes: { path: string; hex: string }[] = [];
  for (const [path, bytes] of files) {
    const entry = expected.get(path);
    if (!entry) {
      problems.push({ path, problem: 'unexpected' });
      continue;
    }
    const hex = await sha256Hex(bytes);
    hexes.push({ path, hex });
    if (bytes.length !== entry.size) problems.push({ path, problem: 'size-mismatch', expected: String(entry.size), actual: String(bytes.length) });
    if (`sha256:${hex}` !== entry.digest) problems.push({ path, problem: 'digest-mismatch', expected: entry.digest, actual: `sha256:${hex}` });
  }
  for (const path of expected.keys()) if (!files.has(path)) problems.push({ path, problem: 'missing' });
  if (problems.length === 0) {
    const tree = await treeDigest(hexes);
    if (tree !== manifest.digest) problems.push({ path: '(tree)', problem: 'tree-digest-mismatch', expected: manifest.digest, actual: tree });
  }
  if (problems.length > 0) throw verificationFailure(manifest.name, problems);
}
