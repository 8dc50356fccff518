import { positionAt } from '../../../core/parse/source-text.ts';
import { estimateTokens } from '../../../core/tokens.ts';
import { defineRule, type FilePlace, type SkillMdContext } from '../rule.ts';

/** Lines of the body, a final line break not starting another: counted, not split (bodies run to thousands of lines). */
function lineCount(body: string): number {
  let breaks = 0;
  for (let at = body.indexOf('\n'); at !== -1; at = body.indexOf('\n', at + 1)) breaks++;
  return body.endsWith('\n') ? breaks : breaks + 1;
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
    const lines = lineCount(ctx.fm.body);
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
