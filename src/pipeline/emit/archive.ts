import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import tar from 'tar-stream';

export interface ArchiveFile {
  path: string;
  bytes: Uint8Array;
}

const gzip = promisify(gzipCallback);

/** Scripts keep their executable bit; it is derived from content so the archive stays reproducible. */
const modeOf = (bytes: Uint8Array): number => (bytes[0] === 0x23 && bytes[1] === 0x21 ? 0o755 : 0o644);

/**
 * A reproducible `.tar.gz` of a skill: files at the archive root in byte order, with parent
 * folder entries, zero timestamps and owners, and a gzip header without a time or name. The same
 * files always give the same bytes, so the archive's digest can be published and verified.
 */
export async function createArchive(files: readonly ArchiveFile[]): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: unknown) => {
    chunks.push(chunk as Buffer);
  });
  const done = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  const header = { mtime: new Date(0), uid: 0, gid: 0, uname: '', gname: '' };
  const sorted = [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const dirs = new Set<string>();
  for (const file of sorted) {
    const parts = file.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = `${parts.slice(0, i).join('/')}/`;
      if (dirs.has(dir)) continue;
      dirs.add(dir);
      pack.entry({ ...header, name: dir, type: 'directory', mode: 0o755 });
    }
    pack.entry({ ...header, name: file.path, type: 'file', mode: modeOf(file.bytes), size: file.bytes.length }, Buffer.from(file.bytes));
  }
  pack.finalize();
  await done;
  // Default compression: level 9 took three times as long for a few percent. Compressing on the
  // thread pool lets the build go on reading and writing meanwhile.
  return new Uint8Array(await gzip(Buffer.concat(chunks)));
}
