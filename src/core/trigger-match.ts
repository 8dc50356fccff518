import { createSearchIndex, type SearchDocument, type SearchIndex, searchIndex } from './search.ts';

/**
 * Trigger matching (docs/extended-package.md#trigger-matching): which skills a user message (and an
 * event) fires, best first. Pure and browser-safe, like search: the runtime, the CLI and any agent
 * host rank with this one function.
 *
 * The rules, exactly:
 * - Text is compared in NFKC form, lower-cased (`Ｃｏｎｖｅｒｔ` = `convert`).
 * - Punctuation, symbols and whitespace only separate: every run of characters that are not
 *   letters, marks or digits counts as one boundary (`how many km, is` = `how many km is`).
 * - Words of scripts written with spaces match whole words only: `convert` fires on `Convert 5 mi`
 *   but not on `converted` or `reconvert`; no stemming.
 * - Chinese, Japanese and Korean characters are units of their own, because those languages write
 *   no spaces between words: `换算` fires inside `帮我换算一下` and inside `换 算`. A Latin word next to
 *   them still needs its own boundary: `pdf转换` fires on `把PDF转换成` but not on `xpdf转换`.
 * - A phrase fires when its units appear in the message in the same order with nothing between them.
 * - An intent (`convert_units`) fires when the caller names it, or when it fires as a phrase with its
 *   `_` and `-` read as spaces (`convert units`).
 * - An event type fires when the caller's event equals it exactly (case-sensitive: they are ids).
 * - A skill of `type: internal` is the platform's own: only its event types fire, never its phrases
 *   or intents.
 * Skills whose triggers fire are ranked by `priority` (0–1, default 0.5) and, within one priority,
 * by the search score of the message against the skill, then by name.
 */

/** What a skill must have to be matched: the search fields plus its triggers. */
export interface TriggerDocument extends SearchDocument {
  /** The extended package's `type`: an `internal` skill fires on events only, never on a user's words. */
  type?: string;
  /** The extended package's `triggers` (the `Triggers` schema), as index.json carries them. */
  triggers?: { intents?: readonly string[]; phrases?: readonly string[]; event_types?: readonly string[]; priority?: number };
}

export interface MatchOptions {
  /** The event being handled (e.g. `abp.tool_request`); fires skills listing it in `event_types`. */
  event?: string;
  /** Intents an upstream classifier already recognised; fire skills listing them in `intents`. */
  intents?: readonly string[];
  /** At most this many matches (default: all). */
  limit?: number;
}

export interface TriggerMatch<T> {
  skill: T;
  /** The skill's trigger priority (0–1; 0.5 when it declares none). */
  priority: number;
  /** The message's search score against the skill (0 when no word of it occurs). */
  score: number;
  /** What fired, as the skill declares it. */
  fired: { phrases: string[]; intents: string[]; event?: string };
}

/** Priority of a skill whose triggers do not set one: the middle of the 0–1 range. */
export const DEFAULT_TRIGGER_PRIORITY = 0.5;

/** One CJK character, or a run of other letters, marks and digits. */
const UNIT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc])[\p{L}\p{M}\p{N}])+/gu;

/**
 * The units text is compared by (see the rules above).
 *
 * @example
 * triggerUnits('Convert 5 mi, please'); // ['convert', '5', 'mi', 'please']
 * triggerUnits('把PDF转换');              // ['把', 'pdf', '转', '换']
 */
export const triggerUnits = (text: string): string[] => [...text.normalize('NFKC').toLowerCase().matchAll(UNIT)].map((m) => m[0]);

/** True when `phrase`'s units occur contiguously in `message`'s units. */
function containsUnits(message: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0 || phrase.length > message.length) return false;
  outer: for (let i = 0; i + phrase.length <= message.length; i += 1) {
    for (let j = 0; j < phrase.length; j += 1) if (message[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * The skills whose triggers fire for a message, best first.
 *
 * @example
 * matchTriggers(index.skills, '帮我换算 5 英里', { event: 'chat.message' });
 */
export function matchTriggers<T extends TriggerDocument>(docs: readonly T[], message: string, options: MatchOptions = {}, search?: SearchIndex<T>): TriggerMatch<T>[] {
  const units = triggerUnits(message);
  const given = new Set((options.intents ?? []).map((intent) => intent.normalize('NFKC').toLowerCase()));
  const matches: TriggerMatch<T>[] = [];
  for (const skill of docs) {
    const triggers = skill.triggers;
    if (!triggers) continue;
    const byWords = skill.type !== 'internal';
    const phrases = (byWords ? (triggers.phrases ?? []) : []).filter((phrase) => containsUnits(units, triggerUnits(phrase)));
    const intents = (byWords ? (triggers.intents ?? []) : []).filter((intent) => given.has(intent.normalize('NFKC').toLowerCase()) || containsUnits(units, triggerUnits(intent.replace(/[_-]+/g, ' '))));
    const event = options.event !== undefined && (triggers.event_types ?? []).includes(options.event) ? options.event : undefined;
    if (phrases.length === 0 && intents.length === 0 && event === undefined) continue;
    const priority = typeof triggers.priority === 'number' && triggers.priority >= 0 && triggers.priority <= 1 ? triggers.priority : DEFAULT_TRIGGER_PRIORITY;
    matches.push({ skill, priority, score: 0, fired: { phrases, intents, ...(event === undefined ? {} : { event }) } });
  }
  if (matches.length === 0) return [];
  const fired = new Set(matches.map((m) => m.skill));
  const hits = searchIndex(search ?? createSearchIndex(docs), message, { limit: fired.size, filter: (doc) => fired.has(doc) });
  const scores = new Map(hits.map((hit) => [hit.doc, hit.score]));
  for (const match of matches) match.score = scores.get(match.skill) ?? 0;
  matches.sort((a, b) => b.priority - a.priority || b.score - a.score || (a.skill.name < b.skill.name ? -1 : a.skill.name > b.skill.name ? 1 : 0));
  return options.limit === undefined ? matches : matches.slice(0, options.limit);
}
