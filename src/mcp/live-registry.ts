import { createHash } from 'node:crypto';
import { NodeRegistry } from '../runtime/node/node-registry.ts';
import { openRegistry } from '../runtime/node/open-registry.ts';
import { zodShapeCheck } from '../runtime/node/zod-shape-check.ts';
import { parseRegistryIndex } from '../runtime/registry.ts';

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * The registry an MCP server serves, kept current. `index.json` is re-read through the runtime's
 * transport — for a URL, the on-disk HTTP cache, which revalidates with ETag, so an unchanged
 * index costs one `304` — and when its digest changes, the new index replaces the old one and
 * every listener is told (the server then sends `list_changed` notifications).
 *
 * A failed refresh (network down, a half-published index) keeps serving the last good index: a
 * running agent should not lose its skills because a CDN hiccuped.
 */
export class LiveRegistry {
  #current: NodeRegistry;
  #digest: string;
  #refreshing: Promise<boolean> | undefined;
  #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #onError: (error: unknown) => void;

  private constructor(registry: NodeRegistry, digest: string, onError: (error: unknown) => void) {
    this.#current = registry;
    this.#digest = digest;
    this.#onError = onError;
  }

  /**
   * @example
   * const live = await LiveRegistry.open('https://skills.example.org/', { cacheDir: '/tmp/skilldex' });
   * live.onChange(() => console.error('index changed:', live.digest));
   */
  static async open(urlOrDir: string | undefined, options: { cacheDir?: string; onError?: (error: unknown) => void } = {}): Promise<LiveRegistry> {
    const registry = await openRegistry(urlOrDir, options.cacheDir ? { cacheDir: options.cacheDir } : {});
    // Revalidated at once: a 304 (or a local read), so the digest is of the bytes just parsed.
    const digest = sha256(await registry.transport.read('index.json', { maxBytes: registry.maxDocumentBytes }));
    return new LiveRegistry(registry, digest, options.onError ?? (() => {}));
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
      const { transport, cacheDir, maxDocumentBytes } = this.#current;
      const bytes = await transport.read('index.json', { maxBytes: maxDocumentBytes });
      const digest = sha256(bytes);
      if (digest === this.#digest) return false;
      const index = parseRegistryIndex(bytes, transport.root, zodShapeCheck);
      this.#current = new NodeRegistry(index, transport, cacheDir, maxDocumentBytes);
      this.#digest = digest;
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
