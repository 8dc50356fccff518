/**
 * Small text decisions the site makes about skill data: which language a page is in, how a facet
 * value becomes a URL segment, how a rule id becomes an anchor. Pure, so unit tests cover them.
 */

/** Languages the site tags pages with. Pagefind builds one index per `<html lang>`. */
export type PageLang = 'en' | 'zh' | 'ja';

const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/gu;
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu;
const LATIN_WORD = /[A-Za-z]{2,}/g;

/**
 * Guesses the language of a skill from its visible text, so Pagefind segments CJK text instead of
 * treating a whole sentence as one "word". Kana means Japanese (Japanese text mixes kana with
 * kanji; Chinese never uses kana). Otherwise Han characters win when they outweigh Latin words:
 * an English description quoting one Chinese term stays English.
 *
 * @example detectLang('在长期记忆中搜索') // 'zh'
 */
export function detectLang(text: string): PageLang {
  const sample = text.slice(0, 4000);
  const kana = sample.match(KANA)?.length ?? 0;
  const han = sample.match(HAN)?.length ?? 0;
  const latinWords = sample.match(LATIN_WORD)?.length ?? 0;
  // A CJK character carries roughly half an English word of meaning.
  const cjkWeight = (kana + han) / 2;
  if (cjkWeight === 0 || cjkWeight < latinWords) return 'en';
  return kana >= 3 || (kana > 0 && kana * 10 >= han) ? 'ja' : 'zh';
}

/**
 * A URL path segment for a facet value (`Code Review` → `code-review`, `记忆` → `记忆`). Letters and
 * digits of any script survive, so Chinese tags keep readable URLs; everything else collapses to
 * `-`. Values that slug to nothing (e.g. only punctuation) get a stable hash instead.
 */
export function slugify(value: string): string {
  const slug = value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug || `v-${shortHash(value)}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: stable across runs and platforms, not a security digest. */
export function shortHash(value: string): string {
  let h = 0x811c9dc5;
  for (const ch of value) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** `1536` → `1.5 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** `2026-11-20T10:00:00Z` → `2026-11-20`; anything unparseable is shown as given. */
export function formatDate(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : new Date(ms).toISOString().slice(0, 10);
}

/** Collapses whitespace and cuts at a word boundary, for card and meta descriptions. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
