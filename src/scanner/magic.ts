/**
 * File formats recognised by their leading "magic" bytes. The scanner trusts bytes, not names: a
 * file's extension only tells us what the author claims it is.
 */
export interface BinaryFormat {
  id: string;
  /** Extensions (lower case, no dot) that honestly carry this format. */
  extensions: readonly string[];
  /** Native code a machine can run directly. */
  executable: boolean;
}

const F = (id: string, extensions: string[], executable = false): BinaryFormat => ({ id, extensions, executable });

export const FORMATS = {
  png: F('png', ['png', 'apng']),
  jpeg: F('jpeg', ['jpg', 'jpeg', 'jpe', 'jfif']),
  gif: F('gif', ['gif']),
  webp: F('webp', ['webp']),
  bmp: F('bmp', ['bmp', 'dib']),
  ico: F('ico', ['ico', 'cur']),
  tiff: F('tiff', ['tif', 'tiff']),
  pdf: F('pdf', ['pdf', 'ai']),
  zip: F('zip', ['zip', 'jar', 'war', 'apk', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub', 'whl', 'nupkg', 'vsix', 'xpi', 'ipa', 'skill', 'mcpb', 'dxt', 'kmz', 'key', 'numbers', 'pages', 'sketch', 'egg']),
  gzip: F('gzip', ['gz', 'tgz', 'svgz']),
  bzip2: F('bzip2', ['bz2', 'tbz', 'tbz2']),
  xz: F('xz', ['xz', 'txz']),
  zstd: F('zstd', ['zst']),
  sevenZip: F('7z', ['7z']),
  rar: F('rar', ['rar']),
  tar: F('tar', ['tar']),
  wasm: F('wasm', ['wasm']),
  woff: F('woff', ['woff']),
  woff2: F('woff2', ['woff2']),
  ttf: F('ttf', ['ttf', 'ttc']),
  otf: F('otf', ['otf']),
  mp3: F('mp3', ['mp3']),
  mp4: F('mp4', ['mp4', 'm4a', 'm4v', 'mov', 'heic', 'avif', '3gp']),
  ogg: F('ogg', ['ogg', 'oga', 'ogv', 'opus']),
  wav: F('wav', ['wav']),
  flac: F('flac', ['flac']),
  sqlite: F('sqlite', ['sqlite', 'sqlite3', 'db']),
  elf: F('elf', ['so', 'o', 'bin', 'elf', 'node', 'out', ''], true),
  pe: F('pe', ['exe', 'dll', 'sys', 'scr', 'node', 'bin', 'efi', ''], true),
  macho: F('mach-o', ['dylib', 'bundle', 'node', 'bin', 'o', ''], true),
  javaClass: F('java-class', ['class']),
} as const;

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0): boolean => {
  if (b.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
};
const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

/** Signatures {@link sniffFormat} looks for at the very start of a file, built once. */
const OPENING = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
  gif87: ascii('GIF87a'),
  gif89: ascii('GIF89a'),
  riff: ascii('RIFF'),
  pdf: ascii('%PDF-'),
  zip: [0x50, 0x4b, 0x03, 0x04],
  zipEmpty: [0x50, 0x4b, 0x05, 0x06],
  gzip: [0x1f, 0x8b],
  bzip2: ascii('BZh'),
  xz: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00],
  zstd: [0x28, 0xb5, 0x2f, 0xfd],
  sevenZip: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c],
  rar: ascii('Rar!\u001a\u0007'),
  wasm: [0x00, 0x61, 0x73, 0x6d],
  woff: ascii('wOFF'),
  woff2: ascii('wOF2'),
  ttf: [0x00, 0x01, 0x00, 0x00, 0x00],
  otf: ascii('OTTO'),
  mp3: ascii('ID3'),
  ogg: ascii('OggS'),
  flac: ascii('fLaC'),
  sqlite: ascii('SQLite format 3\u0000'),
  tiffLittle: [0x49, 0x49, 0x2a, 0x00],
  tiffBig: [0x4d, 0x4d, 0x00, 0x2a],
  ico: [0x00, 0x00, 0x01, 0x00],
  elf: [0x7f, 0x45, 0x4c, 0x46],
  dos: ascii('MZ'),
  machO32: [0xfe, 0xed, 0xfa, 0xce],
  machO64: [0xfe, 0xed, 0xfa, 0xcf],
  machO32Swapped: [0xce, 0xfa, 0xed, 0xfe],
  machO64Swapped: [0xcf, 0xfa, 0xed, 0xfe],
  cafebabe: [0xca, 0xfe, 0xba, 0xbe],
  bmp: ascii('BM'),
} as const satisfies Record<string, readonly number[]>;

/** Signatures {@link sniffFormat} looks for further into a file, at the offset it names. */
const INNER = {
  webp: ascii('WEBP'),
  wave: ascii('WAVE'),
  tar: ascii('ustar'),
  mp4: ascii('ftyp'),
  pe: [0x50, 0x45, 0x00, 0x00],
} as const satisfies Record<string, readonly number[]>;

/**
 * The first byte of every {@link OPENING} signature. A file that starts with another byte (most
 * text does) can only be one of the formats marked further in, so the thirty other tests are
 * skipped: sniffing runs on every file of every skill, and they were a thirtieth of checking one.
 */
const OPENING_BYTES = new Set<number>(Object.values(OPENING).map((sig) => sig[0]));

/** Identifies a binary format from the first bytes, or returns undefined for unknown/text. */
export function sniffFormat(b: Uint8Array): BinaryFormat | undefined {
  if (!OPENING_BYTES.has(b[0] as number)) {
    if (startsWith(b, INNER.tar, 257)) return FORMATS.tar;
    if (startsWith(b, INNER.mp4, 4)) return FORMATS.mp4;
    return undefined;
  }
  if (startsWith(b, OPENING.png)) return FORMATS.png;
  if (startsWith(b, OPENING.jpeg)) return FORMATS.jpeg;
  if (startsWith(b, OPENING.gif87) || startsWith(b, OPENING.gif89)) return FORMATS.gif;
  if (startsWith(b, OPENING.riff) && startsWith(b, INNER.webp, 8)) return FORMATS.webp;
  if (startsWith(b, OPENING.riff) && startsWith(b, INNER.wave, 8)) return FORMATS.wav;
  if (startsWith(b, OPENING.pdf)) return FORMATS.pdf;
  if (startsWith(b, OPENING.zip) || startsWith(b, OPENING.zipEmpty)) return FORMATS.zip;
  if (startsWith(b, OPENING.gzip)) return FORMATS.gzip;
  if (startsWith(b, OPENING.bzip2)) return b.length > 3 && b[3]! >= 0x31 && b[3]! <= 0x39 ? FORMATS.bzip2 : undefined;
  if (startsWith(b, OPENING.xz)) return FORMATS.xz;
  if (startsWith(b, OPENING.zstd)) return FORMATS.zstd;
  if (startsWith(b, OPENING.sevenZip)) return FORMATS.sevenZip;
  if (startsWith(b, OPENING.rar)) return FORMATS.rar;
  if (startsWith(b, INNER.tar, 257)) return FORMATS.tar;
  if (startsWith(b, OPENING.wasm)) return FORMATS.wasm;
  if (startsWith(b, OPENING.woff)) return FORMATS.woff;
  if (startsWith(b, OPENING.woff2)) return FORMATS.woff2;
  if (startsWith(b, OPENING.ttf)) return FORMATS.ttf;
  if (startsWith(b, OPENING.otf)) return FORMATS.otf;
  if (startsWith(b, OPENING.mp3)) return FORMATS.mp3;
  if (startsWith(b, INNER.mp4, 4)) return FORMATS.mp4;
  if (startsWith(b, OPENING.ogg)) return FORMATS.ogg;
  if (startsWith(b, OPENING.flac)) return FORMATS.flac;
  if (startsWith(b, OPENING.sqlite)) return FORMATS.sqlite;
  if (startsWith(b, OPENING.tiffLittle) || startsWith(b, OPENING.tiffBig)) return FORMATS.tiff;
  if (startsWith(b, OPENING.ico) && b.length > 6) return FORMATS.ico;
  if (startsWith(b, OPENING.elf)) return FORMATS.elf;
  if (isPortableExecutable(b)) return FORMATS.pe;
  if (startsWith(b, OPENING.machO32) || startsWith(b, OPENING.machO64) || startsWith(b, OPENING.machO32Swapped) || startsWith(b, OPENING.machO64Swapped)) return FORMATS.macho;
  // CAFEBABE is both a Mach-O universal binary and a Java class; the next word tells them apart
  // (a fat header's architecture count is small, a class file's version is ≥ 45).
  if (startsWith(b, OPENING.cafebabe) && b.length >= 8) {
    const next = ((b[4]! << 24) | (b[5]! << 16) | (b[6]! << 8) | b[7]!) >>> 0;
    return next < 45 ? FORMATS.macho : FORMATS.javaClass;
  }
  if (startsWith(b, OPENING.bmp) && b.length >= 26 && !looksLikeText(b)) return FORMATS.bmp;
  return undefined;
}

/** `MZ` alone is too weak (a text file may start with it); require the `PE\0\0` header it points at. */
function isPortableExecutable(b: Uint8Array): boolean {
  if (!startsWith(b, OPENING.dos) || b.length < 0x40) return false;
  const offset = b[0x3c]! | (b[0x3d]! << 8) | (b[0x3e]! << 16) | (b[0x3f]! << 24);
  if (offset > 0 && offset + 4 <= b.length) return startsWith(b, INNER.pe, offset);
  // A truncated or stub-only DOS executable: still native code if the header is mostly binary.
  return !looksLikeText(b);
}

/** True when the first KB has no NUL and few control bytes, i.e. plausibly some text encoding. */
export function looksLikeText(b: Uint8Array): boolean {
  const n = Math.min(b.length, 1024);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const v = b[i]!;
    if (v === 0) return false;
    if (v < 0x09 || (v > 0x0d && v < 0x20)) control++;
  }
  return control <= n * 0.05;
}

/** Lower-case extension without the dot: `a/b.tar.gz` → `gz`, `Makefile` → ``. */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** Extensions that promise a binary format; text content under one of these names is a disguise. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  Object.values(FORMATS).flatMap((f) => f.extensions).filter((e) => e !== '' && e !== 'bin' && e !== 'db' && e !== 'key' && e !== 'o' && e !== 'out'),
);

/** Extensions that promise human-readable text (source, docs, data). */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  'md', 'markdown', 'mdx', 'txt', 'rst', 'adoc', 'json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf',
  'csv', 'tsv', 'xml', 'html', 'htm', 'css', 'svg', 'sh', 'bash', 'zsh', 'fish', 'ps1', 'psm1', 'bat', 'cmd', 'py',
  'pyw', 'js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'jsx', 'tsx', 'rb', 'pl', 'php', 'lua', 'go', 'rs', 'java', 'kt',
  'swift', 'c', 'h', 'cpp', 'hpp', 'cs', 'r', 'sql', 'graphql', 'vue', 'svelte', 'astro', 'tex', 'env', 'template',
  'tmpl', 'j2', 'hbs', 'mustache', 'ipynb', 'lock', 'log', 'diff', 'patch',
]);
