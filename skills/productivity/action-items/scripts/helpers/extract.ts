/**
 * Finds action items in meeting notes. Line-based and deterministic: relative due dates are
 * resolved only against an explicit meeting date, never against the clock.
 */

export type Priority = 'high' | 'normal';
export type ItemSource = 'checkbox' | 'marker' | 'section';

export interface ActionItem {
  id: string;
  text: string;
  owner: string | null;
  due: string | null;
  dueDate: string | null;
  priority: Priority;
  done: boolean;
  line: number;
  source: ItemSource;
}

const SECTION = /^\s*(?:#{1,6}\s*)?(?:\*\*)?(action items?|actions|next steps|to-?dos?|follow[- ]?ups?|tasks|待办(?:事项)?|行动项|后续(?:事项|行动)?|アクションアイテム|宿題|タスク)(?:\*\*)?\s*[:：]?\s*(?:\*\*)?\s*$/i;
const HEADING = /^\s*#{1,6}\s+\S/;
const LABEL = /^\s*(?:\*\*)?[^-*•\d\s][^:：]{0,40}[:：](?:\*\*)?\s*$/;
const BULLET = /^\s*(?:[-*+•・]|\d+[.)、])\s+(.*)$/;
const CHECKBOX = /^\s*(?:[-*+]\s+)?\[( |x|X)\]\s+(.*)$/;
const MARKER = /^\s*(?:[-*+•]\s+)?(?:\*\*)?(?:TODO|FIXME|Action(?:\s+item)?|AI|待办|行动项|TODO事项)(?:\*\*)?\s*[:：]\s*(.*)$/i;

const PRONOUNS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it', 'someone', 'everyone', 'all', 'this', 'that', 'there', 'the']);
const WEEKDAYS: Record<string, number> = {
  sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6,
  sun: 0, mon: 1, tue: 2, tues: 2, wed: 3, thu: 4, thur: 4, thurs: 4, fri: 5, sat: 6,
  '周日': 0, '周天': 0, '周一': 1, '周二': 2, '周三': 3, '周四': 4, '周五': 5, '周六': 6,
  '星期日': 0, '星期天': 0, '星期一': 1, '星期二': 2, '星期三': 3, '星期四': 4, '星期五': 5, '星期六': 6,
};

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addDays(base: string, days: number): string {
  const d = new Date(`${base}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return isoDate(d);
}

/** Resolves a due phrase to YYYY-MM-DD; relative phrases need `meetingDate`. */
export function resolveDue(phrase: string, meetingDate: string | null): string | null {
  const p = phrase.trim().toLowerCase();
  const iso = /(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})/.exec(p);
  if (iso) {
    const [, y, m, d] = iso;
    const date = `${y}-${(m ?? '').padStart(2, '0')}-${(d ?? '').padStart(2, '0')}`;
    return Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ? null : date;
  }
  if (meetingDate === null) return null;
  if (/^(today|eod|end of day|今天|今日)$/.test(p)) return meetingDate;
  if (/^(tomorrow|明天|明日)$/.test(p)) return addDays(meetingDate, 1);
  if (/^(next week|下周)$/.test(p)) return addDays(meetingDate, 7);
  const weekday = new Date(`${meetingDate}T00:00:00Z`).getUTCDay();
  if (/^(eow|end of (the )?week|本周末?|这周末?)$/.test(p)) return addDays(meetingDate, (5 - weekday + 7) % 7);
  if (/^(eom|end of (the )?month|月底)$/.test(p)) {
    const d = new Date(`${meetingDate}T00:00:00Z`);
    return isoDate(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)));
  }
  const target = WEEKDAYS[p.replace(/^(next|this|下|本)\s*/, '')];
  if (target !== undefined) {
    let delta = (target - weekday + 7) % 7;
    if (delta === 0) delta = 7;
    if (/^(next|下)/.test(p) && delta < 7) delta += 7;
    return addDays(meetingDate, delta);
  }
  return null;
}

const DUE_PATTERNS: RegExp[] = [
  /\s*\((?:due|by|deadline)[:\s]\s*([^)]+)\)/i,
  /[\s,，]*(?:due|deadline)[:\s]\s*(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|[a-z]+(?: [a-z]+){0,2})\s*$/i,
  /\s+by\s+(\d{4}-\d{2}-\d{2}|(?:next |this )?(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*|today|tomorrow|eod|eow|eom|end of (?:the )?(?:day|week|month)|next week)\b\.?/i,
  /[\s,，]*(?:截止|截至|deadline)[:：]?\s*(\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?|明天|今天|下?周[一二三四五六日天]|本周末?|月底)/,
  /[\s,，]*((?:下?周|星期)[一二三四五六日天]|明天|今天|本周|月底)(?:之)?前/,
];

function extractDue(text: string): { text: string; due: string | null } {
  for (const re of DUE_PATTERNS) {
    const m = re.exec(text);
    if (m) return { text: (text.slice(0, m.index) + text.slice(m.index + m[0].length)).trim(), due: (m[1] ?? '').trim() };
  }
  return { text, due: null };
}

function extractOwner(text: string, section: boolean): { text: string; owner: string | null } {
  const tagged = /(?:^|\s)@([\p{L}\p{N}_.-]+)/u.exec(text);
  if (tagged) return { text: text.replace(tagged[0], ' ').replace(/\s{2,}/g, ' ').trim(), owner: tagged[1] ?? null };
  const paren = /\s*\((?:owner|assignee|负责人|担当)[:：\s]\s*([^)]+)\)/i.exec(text);
  if (paren) return { text: text.replace(paren[0], '').trim(), owner: (paren[1] ?? '').trim() };
  const zh = /^(?:负责人|担当)[:：]\s*(\S+)\s+(.*)$/.exec(text);
  if (zh) return { text: zh[2] ?? '', owner: zh[1] ?? null };
  const zhVerb = /^([\p{Script=Han}]{2,4})\s*(?:负责|跟进|来)\s*(.+)$/u.exec(text);
  if (zhVerb) return { text: zhVerb[2] ?? '', owner: zhVerb[1] ?? null };
  const prefix = /^([\p{Lu}][\p{L}.'-]*(?:\s[\p{Lu}][\p{L}.'-]*)?)\s*[:：–—-]\s+(.+)$/u.exec(text);
  if (prefix && section) return { text: prefix[2] ?? '', owner: prefix[1] ?? null };
  const verb = /^([\p{Lu}][\p{L}.'-]*(?:\s(?:and|&)\s[\p{Lu}][\p{L}.'-]*)?)\s+(?:to|will|should|needs? to)\s+(.+)$/u.exec(text);
  if (verb && !PRONOUNS.has((verb[1] ?? '').toLowerCase())) return { text: verb[2] ?? '', owner: verb[1] ?? null };
  return { text, owner: null };
}

function priorityOf(text: string): { text: string; priority: Priority } {
  const re = /\s*(?:\[(?:p0|p1|high|urgent)\]|\((?:p0|p1|high|urgent)\)|!!+|\b(?:asap|urgent)\b|紧急|至急)\s*/i;
  const m = re.exec(text);
  if (!m) return { text, priority: 'normal' };
  return { text: (text.slice(0, m.index) + ' ' + text.slice(m.index + m[0].length)).replace(/\s{2,}/g, ' ').trim(), priority: 'high' };
}

export function extractActionItems(notes: string, meetingDate: string | null): ActionItem[] {
  const items: ActionItem[] = [];
  let inSection = false;
  const lines = notes.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, index) => {
    const line = raw.replace(/\s+$/, '');
    if (line.trim() === '') return;
    if (SECTION.test(line)) {
      inSection = true;
      return;
    }
    const checkbox = CHECKBOX.exec(line);
    const marker = checkbox ? null : MARKER.exec(line);
    const bullet = checkbox || marker ? null : BULLET.exec(line);
    if (!checkbox && !marker && !bullet && (HEADING.test(line) || LABEL.test(line))) {
      inSection = false;
      return;
    }
    let body: string;
    let source: ItemSource;
    let done = false;
    if (checkbox) {
      body = checkbox[2] ?? '';
      done = (checkbox[1] ?? ' ').toLowerCase() === 'x';
      source = 'checkbox';
    } else if (marker) {
      body = marker[1] ?? '';
      source = 'marker';
    } else if (bullet && inSection) {
      body = bullet[1] ?? '';
      source = 'section';
    } else return;
    body = body.replace(/~~/g, '').trim();
    if (body === '') return;
    const p = priorityOf(body);
    const d = extractDue(p.text);
    const o = extractOwner(d.text, inSection || source !== 'section');
    const text = o.text.replace(/^[,，:：\s]+|[,，;；\s]+$/g, '');
    items.push({
      id: `ai-${items.length + 1}`,
      text: text.charAt(0).toUpperCase() + text.slice(1),
      owner: o.owner,
      due: d.due,
      dueDate: d.due === null ? null : resolveDue(d.due, meetingDate),
      priority: p.priority,
      done,
      line: index + 1,
      source,
    });
  });
  return items;
}
