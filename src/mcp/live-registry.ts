import { createHash } from 'node:crypto';
import type { NodeRegistry } from '../runtime/node/node-registry.ts';

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * The registry an MCP server serves, kept current. `index.json` is re-read through the runtime's
 * transport — for a URL, the on-disk HTTP cache, which revalidates with ETag, so an unchanged
 * index costs one `304` — and only when its digest changes is the registry opened again, through
 * the same `open` as at startup: signature, pinned keys and rollback checks apply to every index
 * the server switches to. Then, if the index it opened says anything new, every listener is told
 * (the server sends `list_changed`).
 *
 * A failed refresh (network down, a half-published or unverifiable index) keeps serving the last
 * good index: a running agent should not lose its skills because a CDN hiccuped.
 */
export class LiveRegistry {
  #current: NodeRegistry;
  #digest: string;
  /** What the current registry says: its parsed index and the key that signed it. */
  #meaning: string;
  #open: () => Promise<NodeRegistry>;
  #refreshing: Promise<boolean> | undefined;
  #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #onError: (error: unknown) => void;

  private constructor(registry: NodeRegistry, digest: string, open: () => Promise<NodeRegistry>, onError: (error: unknown) => void) {
    this.#current = registry;
    this.#digest = digest;
    this.#meaning = LiveRegistry.#meaningOf(registry);
    this.#open = open;
    this.#onError = onError;
  }

  /**
   * @example
   * const live = await LiveRegistry.open(() => openRegistry('https://skills.example.org/'));
   * live.onChange(() => console.error('index changed:', live.digest));
   */
  static async open(open: () => Promise<NodeRegistry>, options: { onError?: (error: unknown) => void } = {}): Promise<LiveRegistry> {
    const registry = await open();
    // Revalidated at once (a 304, or a local read). Should the index change between the two
    // reads, the digest is the newer one and that publish is picked up by the next one after it.
    return new LiveRegistry(registry, await LiveRegistry.#digestOf(registry), open, options.onError ?? (() => {}));
  }

  static #meaningOf(registry: NodeRegistry): string {
    return sha256(new TextEncoder().encode(`${registry.verifiedBy ?? ''}\n${JSON.stringify(registry.index)}`));
  }

  static async #digestOf(registry: NodeRegistry): Promise<string> {
    return sha256(await registry.transport.read('index.json', { maxBytes: registry.maxDocumentBytes }));
  }

  get current(): NodeRegistry {
    return this.#current;
  }

  /** sha256 of the index.json bytes being served. */
  get digest(): string {
    return this.#digest;
  }

  /** Calls `listener` after each change of the index; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Revalidates index.json; resolves to true when it changed. Concurrent calls share one request.
   * Never rejects: a failure is reported to `onError` and the current index stays.
   */
  refresh(): Promise<boolean> {
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #refresh(): Promise<boolean> {
    try {
      const digest = await LiveRegistry.#digestOf(this.#current);
      if (digest === this.#digest) return false;
      const next = await this.#open();
      this.#digest = digest;
      // New bytes are not a new index: white space, or the index.json beside a signed index,
      // which the host may change at will. Each notice has every client list again, and each
      // listing refreshes: told of bytes that change per request, clients would go round for ever.
      const meaning = LiveRegistry.#meaningOf(next);
      if (meaning === this.#meaning) return false;
      this.#current = next;
      this.#meaning = meaning;
    } catch (error) {
      this.#onError(error);
      return false;
    }
    for (const listener of this.#listeners) listener();
    return true;
  }

  /** Also revalidates every `seconds` (0: never). The timer does not keep the process alive. */
  poll(seconds: number): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = seconds > 0 ? setInterval(() => void this.refresh(), seconds * 1000) : undefined;
    this.#timer?.unref();
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#listeners.clear();
  }
}
