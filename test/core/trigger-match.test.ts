import { describe, expect, it } from 'vitest';
import { matchTriggers, triggerUnits } from '../../src/core/trigger-match.ts';

const skill = (name: string, triggers: Record<string, unknown>, description = `${name} skill`) => ({ name, description, triggers });

describe('trigger matching rules', () => {
  const docs = [
    skill('convert', { phrases: ['convert', 'how many km is', '换算', 'pdf转换'], intents: ['convert_units'], priority: 0.6 }),
    skill('meeting', { phrases: ['整理待办', '宿題を洗い出して'], event_types: ['meeting.ended'], priority: 0.7 }),
    skill('plain', { phrases: ['convert'] }, 'converts convert convert things'),
    skill('silent', {}),
    { name: 'none', description: 'no triggers' },
  ];
  const names = (message: string, options = {}) => matchTriggers(docs, message, options).map((m) => m.skill.name);

  it('compares NFKC, lower-cased text', () => {
    expect(names('ＣＯＮＶＥＲＴ 5 mi')).toEqual(['convert', 'plain']);
    expect(triggerUnits('Ｃｏｎｖｅｒｔ')).toEqual(['convert']);
  });

  it('matches whole words only, without stemming, in scripts written with spaces', () => {
    expect(names('I converted it')).toEqual([]);
    expect(names('reconvert')).toEqual([]);
    expect(names('How many km is a mile?')).toEqual(['convert']);
    expect(names('how many kms is')).toEqual([]);
  });

  it('treats punctuation and whitespace as separators only', () => {
    expect(names('how   many, km... is it')).toEqual(['convert']);
    expect(names('"convert!"')).toEqual(['convert', 'plain']);
  });

  it('matches Chinese and Japanese inside text without spaces, keeping Latin word boundaries', () => {
    expect(names('帮我换算一下')).toEqual(['convert']);
    expect(names('换 算')).toEqual(['convert']);
    expect(names('会议结束了，请整理待办事项')).toEqual(['meeting']);
    expect(names('会議の宿題を洗い出してください')).toEqual(['meeting']);
    expect(names('把PDF转换成Word')).toEqual(['convert']);
    expect(names('把xpdf转换成Word')).toEqual([]);
    expect(triggerUnits('把PDF转换')).toEqual(['把', 'pdf', '转', '换']);
  });

  it('fires intents by name or as a phrase, and events exactly', () => {
    expect(matchTriggers(docs, 'please convert units', {})[0]?.fired).toEqual({ phrases: ['convert'], intents: ['convert_units'] });
    expect(names('hello', { intents: ['CONVERT_UNITS'] })).toEqual(['convert']);
    expect(names('', { event: 'meeting.ended' })).toEqual(['meeting']);
    expect(names('', { event: 'Meeting.Ended' })).toEqual([]);
  });

  it('ranks by priority (default 0.5), then search score, then name', () => {
    const ranked = matchTriggers(docs, 'convert 整理待办', {});
    expect(ranked.map((m) => [m.skill.name, m.priority])).toEqual([['meeting', 0.7], ['convert', 0.6], ['plain', 0.5]]);
    const tie = [skill('b-skill', { phrases: ['go'] }, 'go go go'), skill('a-skill', { phrases: ['go'] }, 'unrelated'), skill('c-skill', { phrases: ['go'] }, 'unrelated')];
    const order = matchTriggers(tie, 'go', {});
    expect(order.map((m) => m.skill.name)).toEqual(['b-skill', 'a-skill', 'c-skill']);
    expect(order[0]!.score).toBeGreaterThan(order[1]!.score);
  });
});
