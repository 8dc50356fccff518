import { positionAt } from '../../../core/parse/source-text.ts';
import { resolveSegments } from '../../../core/paths.ts';
import { estimateTokens } from '../../../core/tokens.ts';
import { linksIn, relativeLinkPath } from '../../references.ts';
import { defineRule, type FilePlace, type SkillMdContext } from '../rule.ts';

/**
 * Lines of the body, a final line break not starting another. Taken from the file's line table,
 * which the positions of its diagnostics need anyway: counting the breaks again cost a fiftieth
 * of reading and checking a skill.
 */
function bodyLineCount(ctx: SkillMdContext): number {
  // Every line start after the body's own first line follows a line break inside the body.
  const breaks = ctx.source.lineStarts.length - positionAt(ctx.source, ctx.fm.bodyOffset).line;
  return ctx.fm.body.endsWith('\n') ? breaks : breaks + 1;
}
const isEmpty = (ctx: SkillMdContext): boolean => ctx.fm.body.trim() === '';
/** Body rules point at the first line of the body, not at a frontmatter path. */
const atBody = (ctx: SkillMdContext): FilePlace => ({ file: 'SKILL.md', ...positionAt(ctx.source, ctx.fm.bodyOffset) });

export const bodyEmpty = defineRule({
  id: 'body/empty',
  severity: 'warning',
  scope: 'skill-md',
  description: 'The SKILL.md body is empty; agents get no instructions.',
  hint: 'write the instructions an agent follows after loading the skill',
  check(ctx, report) {
    if (isEmpty(ctx)) report([], 'the SKILL.md body is empty');
  },
});

export const bodyTooLong = defineRule({
  id: 'body/too-long',
  severity: 'warning',
  scope: 'skill-md',
  description: 'The body is longer than `limits.maxBodyLines` lines; move detail into references/.',
  hint: 'move detail into references/ and link to it',
  check(ctx, report) {
    const lines = bodyLineCount(ctx);
    const max = ctx.config.limits.maxBodyLines;
    if (!isEmpty(ctx) && lines > max) report(atBody(ctx), `the body has ${lines} lines (guidance: under ${max})`);
  },
});

// Lines alone miss a body of one 2 MB line, which an agent still loads whole.
export const bodyTooLarge = defineRule({
  id: 'body/too-large',
  severity: 'warning',
  scope: 'skill-md',
  description: 'The body is more than `limits.maxBodyTokens` estimated tokens (default 5,000); move detail into references/.',
  hint: 'keep the instructions short; move detail into references/ files the body links to, which agents read only when needed',
  check(ctx, report) {
    const tokens = estimateTokens(ctx.fm.body);
    const max = ctx.config.limits.maxBodyTokens;
    if (tokens > max) report(atBody(ctx), `the body is about ${tokens.toLocaleString('en-US')} tokens (guidance: under ${max.toLocaleString('en-US')}); agents load all of it`);
  },
});

/** Links in a body longer than this are not all checked: a huge body is `body/too-large`'s to report. */
const MAX_CHECKED_LINKS = 500;

/**
 * A link to a file on the author's own computer: a Windows drive path (`C:\Users\me\guide.md`)
 * or a `file:` URL. Published, it points nowhere for anyone else.
 */
const LOCAL_FILE = /^(?:[A-Za-z]:[\\/]|file:)/i;

/**
 * Where a relative link of the body points inside the skill folder (`references/guide.md`), or why
 * it cannot point anywhere there; undefined for what is not a file link (a URL, an anchor, an
 * absolute path, a link out of the folder, which is another skill's business).
 */
function linkedPath(destination: string): { path: string } | { problem: string; hint: string } | undefined {
  if (LOCAL_FILE.test(destination)) {
    return { problem: 'points to a file on your own computer, which no one else has', hint: 'copy the file into the skill (references/ or assets/) and link to it relative to SKILL.md' };
  }
  const path = relativeLinkPath(destination);
  if (path === undefined) return undefined;
  if (path.includes('\\')) return { problem: 'uses `\\` between folders; links use `/` on every system', hint: `write '${destination.replaceAll('\\', '/')}'` };
  const segments = resolveSegments([], path);
  return segments ? { path: segments.join('/') } : undefined;
}

export const bodyBrokenLink = defineRule({
  id: 'body/broken-link',
  severity: 'warning',
  scope: 'skill-md',
  description: "A relative link in the body points to a file or folder the skill does not have, or a link points to a file on the author's computer (`C:\\…`, `file:`).",
  hint: 'add the file to the skill, or fix the link (paths are relative to SKILL.md and case-sensitive)',
  check(ctx, report) {
    const text = ctx.source.text;
    // A body without `]` has no link: one native scan says so.
    if (!text.includes(']')) return;
    const links = linksIn('SKILL.md', text, ctx.source.lineStarts);
    if (links.length === 0) return;
    // Every file and every folder on the way to one, as a link may name either.
    const present = new Set<string>();
    for (const { path } of ctx.src.files) {
      for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) present.add(path.slice(0, at));
      present.add(path);
    }
    const exists = (path: string) => present.has(path.replace(/\/$/, ''));
    for (const { destination, line, column } of links.slice(0, MAX_CHECKED_LINKS)) {
      const linked = linkedPath(destination);
      if (!linked) continue;
      const at = { file: 'SKILL.md', line, column };
      if ('problem' in linked) report(at, `the link '${destination}' ${linked.problem}`, { hint: linked.hint });
      else if (!exists(linked.path)) report(at, `the link '${destination}' points to ${linked.path}, which the skill does not have`);
    }
  },
});
