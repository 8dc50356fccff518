/**
 * index.json's size on the wire (raw, gzip, Brotli) against the floor every index must carry: each
 * skill's name and description. Called by scripts/bench.ts; also runnable on its own over built
 * registries, without the rest of the bench:
 *
 *   node scripts/bench/index-size.ts <registry-dir>... [--fields]
 *
 * `--fields` adds each entry field's share of the gzipped index: how many gzip bytes the index
 * loses when that field is left out of every entry (what dropping it from the format would save).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface WireSize {
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

export interface IndexSize {
  skills: number;
  index: WireSize;
  /** Every skill's `name\ndescription`, joined by newlines. */
  floor: WireSize;
  ratio: { gzip: number; brotli: number };
}

const gzip = (data: Uint8Array | string): number => gzipSync(data).length;
/** Brotli at quality 11, what a host precompressing static files serves. */
const brotli = (data: Uint8Array | string): number => brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const wire = (data: Uint8Array | string): WireSize => ({ bytes: Buffer.byteLength(data), gzipBytes: gzip(data), brotliBytes: brotli(data) });
const ratio = (a: number, b: number): number => Number((a / b).toFixed(2));

type Index = { skills: Record<string, unknown>[] };

/** The sizes of `<dir>/index.json` and of its name + description floor. */
export function indexSize(dir: string): IndexSize {
  const bytes = readFileSync(join(dir, 'index.json'));
  const index = JSON.parse(bytes.toString('utf8')) as Index;
  const floorText = index.skills.map((s) => `${String(s.name)}\n${String(s.description)}`).join('\n');
  const measured = wire(bytes);
  const floor = wire(floorText);
  return { skills: index.skills.length, index: measured, floor, ratio: { gzip: ratio(measured.gzipBytes, floor.gzipBytes), brotli: ratio(measured.brotliBytes, floor.brotliBytes) } };
}

/**
 * Each entry field's share of the gzipped index: the gzip bytes saved by leaving the field out of
 * every entry, as a fraction of the whole. Shares need not add up to 1 (fields compress together).
 */
export function fieldShares(dir: string): { field: string; gzipBytes: number; share: number }[] {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as Index;
  const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const whole = gzip(text(index));
  const fields = [...new Set(index.skills.flatMap((s) => Object.keys(s)))];
  return fields
    .map((field) => {
      const without = { ...index, skills: index.skills.map(({ [field]: _, ...rest }) => rest) };
      const saved = whole - gzip(text(without));
      return { field, gzipBytes: saved, share: ratio(saved, whole) };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  for (const dir of dirs) {
    console.log(JSON.stringify({ dir, ...indexSize(dir) }));
    if (process.argv.includes('--fields')) for (const f of fieldShares(dir)) console.log(`  ${f.field.padEnd(16)} ${String(f.gzipBytes).padStart(9)} B gzip  ${(f.share * 100).toFixed(1)} %`);
  }
}
