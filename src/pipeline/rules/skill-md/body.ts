import { estimateTokens } from '../../../core/tokens.ts';
import { positionAt } from '../../../core/parse/source-text.ts';
import { defineSkillMdRule, type SkillMdContext } from './rule.ts';

const lineCount = (body: string): number => body.replace(/\r?\n$/, '').split('\n').length;
const isEmpty = (ctx: SkillMdContext): boolean => ctx.fm.body.trim() === '';
/** Body rules point at the first line of the body, not at a frontmatter path. */
const atBody = (ctx: SkillMdContext) => positionAt(ctx.source, ctx.fm.bodyOffset);

export const bodyEmpty = defineSkillMdRule('body/empty', 'write the instructions an agent follows after loading the skill', (ctx, report) => {
  if (isEmpty(ctx)) report([], 'the SKILL.md body is empty');
});

export const bodyTooLong = defineSkillMdRule('body/too-long', 'move detail into references/ and link to it', (ctx) => {
  const lines = lineCount(ctx.fm.body);
  const max = ctx.config.limits.maxBodyLines;
  if (!isEmpty(ctx) && lines > max) {
    ctx.sink.report('body/too-long', ctx.file, atBody(ctx), `the body has ${lines} lines (guidance: under ${max})`, { hint: bodyTooLong.meta.hint, skill: ctx.skill });
  }
});

// Lines alone miss a body of one 2 MB line, which an agent still loads whole.
export const bodyTooLarge = defineSkillMdRule(
  'body/too-large',
  'keep the instructions short; move detail into references/ files the body links to, which agents read only when needed',
  (ctx) => {
    const tokens = estimateTokens(ctx.fm.body);
    const max = ctx.config.limits.maxBodyTokens;
    if (tokens > max) {
      ctx.sink.report('body/too-large', ctx.file, atBody(ctx), `the body is about ${tokens.toLocaleString('en-US')} tokens (guidance: under ${max.toLocaleString('en-US')}); agents load all of it`, { hint: bodyTooLarge.meta.hint, skill: ctx.skill });
    }
  },
);
