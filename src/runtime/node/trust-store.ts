import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { bracketDepthExceeds, MAX_JSON_DEPTH } from '../../core/json-depth.ts';
import { PUBLIC_KEY_PATTERN } from '../../core/public-key.ts';
import { RegistryError } from '../../core/errors/registry-error.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { makeFolder } from '../../core-node/make-folder.ts';

/**
 * What the client remembers per registry, by its root (URL or folder):
 * - the keys pinned for it, in the client's config (`trust.json`), which the user owns;
 * - the newest signed `generatedAt` seen and whether the "unverified" note was shown, in the
 *   cache (`trust-state.json`), which the client may rebuild.
 */
export interface RegistryPin {
  keys: string[];
  /** `manual` (written by the user or `--trust`) or `trust-on-first-use`. */
  how: 'manual' | 'trust-on-first-use';
}

/** `$SKILLDEX_CONFIG_DIR`, else `$XDG_CONFIG_HOME/skilldex`, else `~/.config/skilldex`. */
export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SKILLDEX_CONFIG_DIR) return env.SKILLDEX_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'skilldex');
}


async function readJsonObject(path: string): Promise<Record<string, unknown>> {
  try {
    const text = await readFile(path, 'utf8');
    if (bracketDepthExceeds(text, MAX_JSON_DEPTH) !== undefined) return {};
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const PINS_HINT = 'fix it, or remove it to pin nothing: it holds the keys pinned per registry, {"registries": {"<url or folder>": {"keys": ["ed25519:…"]}}}, as plain JSON without comments (docs/security.md#the-chain-of-trust)';

/**
 * The user's pins. A file that is not there pins nothing; one that cannot be read or is not a JSON
 * object stops every read: ignoring it would read a pinned registry unverified.
 */
async function readPins(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw new RegistryError('TRUST_CONFIG_INVALID', `cannot read ${path} (${code ?? (error as Error).message}), so the keys pinned in it cannot be checked`, { hint: PINS_HINT });
  }
  let value: unknown;
  try {
    if (bracketDepthExceeds(text, MAX_JSON_DEPTH) !== undefined) throw new Error(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    value = JSON.parse(text);
  } catch (error) {
    throw new RegistryError('TRUST_CONFIG_INVALID', `${path} is not valid JSON (${(error as Error).message}), so the keys pinned in it cannot be checked`, { hint: PINS_HINT });
  }
  const registries = (value as { registries?: unknown } | null)?.registries;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (registries !== undefined && (typeof registries !== 'object' || registries === null || Array.isArray(registries)))) {
    throw new RegistryError('TRUST_CONFIG_INVALID', `${path} is not an object with a "registries" object, so the keys pinned in it cannot be checked`, { hint: PINS_HINT });
  }
  return value as Record<string, unknown>;
}

async function writeJson(path: string, value: unknown): Promise<void> {
  makeFolder(dirname(path));
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

export class TrustStore {
  readonly #pins: string;
  readonly #state: string;

  constructor(configDir: string, cacheDir: string) {
    this.#pins = join(configDir, 'trust.json');
    this.#state = join(cacheDir, 'trust-state.json');
  }

  /**
   * The keys pinned for `root`, or undefined when it has no entry. An entry that pins nothing a
   * client can check (a misspelt key, no `keys` list) is refused, not read as "no pin".
   */
  async pinned(root: string): Promise<RegistryPin | undefined> {
    const registries = (await readPins(this.#pins)).registries as Record<string, { keys?: unknown; how?: unknown }> | undefined;
    if (!registries || !Object.hasOwn(registries, root)) return undefined;
    const entry = registries[root];
    const listed = Array.isArray(entry?.keys) ? entry.keys : [];
    const keys = listed.filter((k): k is string => typeof k === 'string' && PUBLIC_KEY_PATTERN.test(k));
    if (keys.length === 0 || keys.length !== listed.length) {
      throw new RegistryError('TRUST_CONFIG_INVALID', `${this.#pins}: the entry for ${root} needs "keys", a list of public keys (ed25519:<43 base64url characters>)`, { hint: PINS_HINT });
    }
    return { keys, how: entry?.how === 'trust-on-first-use' ? 'trust-on-first-use' : 'manual' };
  }

  async pin(root: string, pin: RegistryPin): Promise<void> {
    const config = await readPins(this.#pins);
    const registries = { ...(config.registries as Record<string, unknown> | undefined), [root]: { keys: pin.keys, how: pin.how } };
    await writeJson(this.#pins, { ...config, registries });
  }

  async #registryState(root: string): Promise<{ all: Record<string, unknown>; mine: { generatedAt?: string; noticed?: boolean } }> {
    const all = await readJsonObject(this.#state);
    const mine = Object.hasOwn(all, root) && typeof all[root] === 'object' && all[root] !== null ? (all[root] as { generatedAt?: string; noticed?: boolean }) : {};
    return { all, mine };
  }

  /** The newest signed `generatedAt` seen for `root`. */
  async lastSeen(root: string): Promise<string | undefined> {
    const { mine } = await this.#registryState(root);
    return typeof mine.generatedAt === 'string' ? mine.generatedAt : undefined;
  }

  async recordSeen(root: string, generatedAt: string): Promise<void> {
    const { all, mine } = await this.#registryState(root);
    if (typeof mine.generatedAt === 'string' && mine.generatedAt >= generatedAt) return;
    await writeJson(this.#state, { ...all, [root]: { ...mine, generatedAt } });
  }

  /** True the first time it is asked for `root`: the "unverified" note is shown once per registry. */
  async firstUnverifiedRead(root: string): Promise<boolean> {
    const { all, mine } = await this.#registryState(root);
    if (mine.noticed === true) return false;
    await writeJson(this.#state, { ...all, [root]: { ...mine, noticed: true } }).catch(() => {});
    return true;
  }
}
