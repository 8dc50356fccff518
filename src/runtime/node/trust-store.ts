import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { bracketDepthExceeds, MAX_JSON_DEPTH } from '../../core/json-depth.ts';
import { PUBLIC_KEY_PATTERN } from '../../core/public-key.ts';
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

  /** The keys pinned for `root`, or undefined. Entries that are not well-formed keys are ignored. */
  async pinned(root: string): Promise<RegistryPin | undefined> {
    const registries = (await readJsonObject(this.#pins)).registries as Record<string, { keys?: unknown; how?: unknown }> | undefined;
    const entry = registries && Object.hasOwn(registries, root) ? registries[root] : undefined;
    const keys = Array.isArray(entry?.keys) ? entry.keys.filter((k): k is string => typeof k === 'string' && PUBLIC_KEY_PATTERN.test(k)) : [];
    return keys.length > 0 ? { keys, how: entry?.how === 'trust-on-first-use' ? 'trust-on-first-use' : 'manual' } : undefined;
  }

  async pin(root: string, pin: RegistryPin): Promise<void> {
    const config = await readJsonObject(this.#pins);
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
