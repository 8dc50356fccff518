/**
 * A skill archive is untrusted: only regular files and folders come out of it, and every refusal
 * says what it means and that nothing was written.
 */
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { RegistryError } from '../../src/core/errors/registry-error.ts';
import { createArchive } from '../../src/pipeline/emit/archive.ts';
import { archiveSizeBound, readSkillArchive } from '../../src/runtime/node/archive.ts';

async function packed(entries: { header: tar.Headers; body?: string }[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const { header, body } of entries) pack.entry(header, body ?? '');
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

const refusal = async (gz: Uint8Array): Promise<RegistryError> => {
  const error = await readSkillArchive(gz, 'forged').then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(RegistryError);
  return error as RegistryError;
};

describe('archiveSizeBound', () => {
  it('bounds the download by what an archive may inflate to, however many empty files a manifest lists', () => {
    // 600,000 empty files fit a 64 MiB manifest that declares 0 bytes; their headers alone bounded the archive at ~920 MB.
    const files = Array.from({ length: 600_000 }, (_, i) => ({ path: i.toString(36), size: 0, digest: `sha256:${'0'.repeat(64)}` }));
    const bound = archiveSizeBound({ files });
    const inflatable = 320 * 1024 * 1024;
    expect(bound.tar).toBe(inflatable);
    expect(bound.gzip).toBeLessThan(inflatable * 1.001 + 2048);
  });
});

describe('readSkillArchive', () => {
  it('reads a build\'s archive of files 150 folders deep within the bound its manifest sets', async () => {
    const deep = `${Array.from({ length: 150 }, () => 'd').join('/')}/f.txt`;
    const files = [{ path: 'SKILL.md', bytes: Buffer.from('# x\n') }, { path: deep, bytes: Buffer.from('x\n') }, { path: `${'n'.repeat(250)}.md`, bytes: Buffer.from('y\n') }];
    const gz = await createArchive(files);
    const bound = archiveSizeBound({ files: files.map((f) => ({ path: f.path, size: f.bytes.length, digest: `sha256:${'0'.repeat(64)}` })) });
    expect(gz.length).toBeLessThanOrEqual(bound.gzip);
    const read = await readSkillArchive(gz, 'deep', bound.tar);
    expect([...read.keys()].sort()).toEqual([...files.map((f) => f.path)].sort());
  });

  it('reads regular files into memory', async () => {
    const files = await readSkillArchive(await packed([{ header: { name: 'SKILL.md' }, body: '# x\n' }, { header: { name: 'scripts/run.sh', mode: 0o755 }, body: 'echo\n' }]));
    expect([...files.keys()].sort()).toEqual(['SKILL.md', 'scripts/run.sh']);
    expect(Buffer.from(files.get('SKILL.md')!).toString()).toBe('# x\n');
  });

  it('refuses a symlink, a hard link, a repeated path and a non-gzip body, each with a hint', async () => {
    const cases = [
      [await packed([{ header: { name: 'link', type: 'symlink', linkname: '/etc/passwd' } }]), /archive entry "link" is a symlink; only regular files are allowed/],
      [await packed([{ header: { name: 'hard', type: 'link', linkname: 'SKILL.md' } }]), /archive entry "hard" is a link/],
      [await packed([{ header: { name: 'a.md' }, body: '1' }, { header: { name: 'a.md' }, body: '2' }]), /archive holds "a.md" twice/],
      [Buffer.from('not gzip'), /the archive is not valid gzip/],
    ] as const;
    for (const [gz, message] of cases) {
      const error = await refusal(gz);
      expect(error.code).toBe('VERIFICATION_FAILED');
      expect(error.message).toMatch(message);
      expect(error.hint).toMatch(/nothing was written/);
    }
  });
});
