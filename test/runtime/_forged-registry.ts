import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createArchive } from '../../src/pipeline/emit/archive.ts';
import { closeServer } from '../../scripts/preview.ts';

/**
 * Hand-written registries for attacking the client. Every digest is correct — per file, tree and
 * archive — so whatever the client refuses, it refuses for the attack, not for a checksum.
 */

export interface ForgedSkill {
  name: string;
  files: Record<string, string | Uint8Array>;
  format?: 'skill-md' | 'package' | 'skill-json';
  mode?: 'instructions' | 'code' | 'llm' | 'composite';
  description?: string;
  /** Changes to the manifest after it is built (and before the index entry is derived from it). */
  manifest?: (m: Record<string, any>) => void;
  /** Changes to the manifest's JSON text, for documents JSON.stringify cannot write (100,000 levels deep). */
  manifestText?: (json: string) => string;
}

const hex = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** The discovery RFC tree digest, computed here independently of the runtime. */
function treeDigest(files: { path: string; hex: string }[]): string {
  const lines = [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path))).map((f) => `${f.path}\0${f.hex}\n`);
  return `sha256:${hex(lines.join(''))}`;
}

/** Every path of a forged registry and its bytes: index.json, manifests, raw files and archives. */
export async function forgeRegistry(skills: ForgedSkill[], registry: { url?: string } = {}): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const entries = [];
  for (const skill of skills) {
    const files = Object.entries(skill.files).map(([path, content]) => ({ path, bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content }));
    const listed = files.map((f) => ({ path: f.path, size: f.bytes.length, digest: `sha256:${hex(f.bytes)}` }));
    const digest = treeDigest(files.map((f) => ({ path: f.path, hex: hex(f.bytes) })));
    const d16 = digest.slice(7, 23);
    // URLs are independent of the name: a forged name reaches the client's paths, never a URL check.
    const slug = skill.name.replace(/[^A-Za-z0-9_-]/g, '_');
    const urls = { page: `skills/${slug}/`, manifest: `skills/${slug}.json`, files: `skills/${slug}/${d16}/`, archive: `skills/${slug}/${d16}.tar.gz` };
    const format = skill.format ?? 'skill-md';
    const manifest: Record<string, any> = {
      name: skill.name,
      title: skill.name,
      description: skill.description ?? `The ${skill.name} skill.`,
      version: '1.0.0',
      format,
      mode: skill.mode ?? 'instructions',
      tags: [],
      keywords: [],
      sourcePath: `skills/${skill.name}`,
      sourceFile: format === 'skill-json' ? 'skill.json' : 'SKILL.md',
      hasSkillMd: files.some((f) => f.path === 'SKILL.md'),
      calls: [],
      calledBy: [],
      timeoutMs: 30_000,
      retry: 0,
      tools: [],
      files: listed,
      digest,
      lastModified: '2026-01-01T00:00:00.000Z',
      urls,
      diagnostics: [],
    };
    skill.manifest?.(manifest);
    const text = JSON.stringify(manifest);
    const served = new TextEncoder().encode(skill.manifestText ? skill.manifestText(text) : text);
    out.set(manifest.urls.manifest, served);
    for (const f of files) out.set(`${urls.files}${f.path}`, f.bytes);
    out.set(urls.archive, await createArchive(files));
    const fields = ['name', 'title', 'description', 'version', 'tags', 'tools', 'hasSkillMd', 'lastModified', 'format', 'mode', 'keywords', 'digest', 'category'];
    const entry = Object.fromEntries(fields.filter((k) => manifest[k] !== undefined).map((k) => [k, manifest[k]]));
    entries.push({ ...entry, scriptCount: 0, path: manifest.urls.files, manifestDigest: `sha256:${hex(served)}` });
  }
  const index = {
    version: '2.0.0',
    registry: { title: 'Forged', ...registry },
    urls: { manifest: 'skills/{name}.json', page: 'skills/{name}/' },
    skills: entries,
    totalSkills: entries.length,
    totalTools: 0,
    generatedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  out.set('index.json', new TextEncoder().encode(JSON.stringify(index)));
  return out;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ForgedServer {
  /** `http://127.0.0.1:<port>/` */
  origin: string;
  /** Paths requested, in order. */
  requests: string[];
  /** Serves `bytes` (or runs `handler`) at `path` (absolute, starting with `/`). */
  set(path: string, body: Uint8Array | string | Handler): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 serving fixed bytes or custom handlers by path; 404 otherwise. */
export async function serveForged(): Promise<ForgedServer> {
  const routes = new Map<string, Uint8Array | string | Handler>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const route = routes.get(path);
    if (route === undefined) res.writeHead(404).end('not found');
    else if (typeof route === 'function') route(req, res);
    else res.writeHead(200, { 'content-length': String(Buffer.byteLength(route)) }).end(route);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}/`,
    requests,
    set: (path, body) => routes.set(path, body),
    close: () => {
      server.closeAllConnections();
      return closeServer(server);
    },
  };
}

/** Serves a forged registry under `prefix` (e.g. `/reg/`) and returns the registry URL. */
export function mount(server: ForgedServer, files: Map<string, Uint8Array>, prefix = '/reg/'): string {
  for (const [path, bytes] of files) server.set(`${prefix}${path}`, bytes);
  return `${server.origin.slice(0, -1)}${prefix}`;
}

/**
 * A handler that streams zero bytes until the client goes away, counting what it sent: the body a
 * hostile registry uses to fill a client's memory.
 */
export function endless(sent: { bytes: number; closed: boolean }, headers: Record<string, string> = {}): Handler {
  const chunk = Buffer.alloc(64 * 1024);
  return (_req, res) => {
    res.writeHead(200, headers);
    const pump = () => {
      while (!res.destroyed) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    res.on('close', () => {
      sent.closed = true;
    });
    pump();
  };
}

/** Writes a forged registry into `dir` as a build folder, for `--registry <folder>`. */
export async function writeForged(dir: string, files: Map<string, Uint8Array>): Promise<string> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const { dirname, join } = await import('node:path');
  for (const [path, bytes] of files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), bytes);
  }
  return dir;
}
