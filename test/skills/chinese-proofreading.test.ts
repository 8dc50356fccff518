import { describe, expect, it } from 'vitest';
import { ok, runScript } from './_protocol.ts';

const SCRIPT = 'writing/chinese-proofreading/scripts/punct_check.py';
const run = (req: unknown, env?: Record<string, string>) => runScript('python3', SCRIPT, req, env);

describe('chinese-proofreading punct_check.py (python3, seed 004)', () => {
  it('fix: converts punctuation, full-width digits, ellipses, quotes and brackets', () => {
    const text = '今天我们发布了Skilldex ２．０,支持"技能索引"(index)和(中文搜索)功能!!欢迎试用...  谢谢 。准确率９９．５％。';
    const data = ok(run({ action: 'fix', params: { text } }), 'fix');
    expect(data.text).toBe('今天我们发布了Skilldex 2.0，支持“技能索引”(index)和（中文搜索）功能！欢迎试用……谢谢。准确率99.5%。');
    expect(data.changed).toBe(true);
    expect(data.applied).toMatchObject({ 'fullwidth-alnum': 2, 'halfwidth-punct': 2, 'ellipsis': 1, 'straight-quotes': 1, 'halfwidth-parens': 1 });
  });

  it('fix: optionally adds spaces between Chinese and Latin text', () => {
    expect(ok(run({ action: 'fix', params: { text: '在GitHub上发布2个版本', add_spacing: true } }), 'fix').text).toBe('在 GitHub 上发布 2 个版本');
    expect(ok(run({ action: 'fix', params: { text: '在GitHub上' } }), 'fix')).toMatchObject({ text: '在GitHub上', changed: false });
  });

  it('fix: leaves numbers, URLs and English sentences alone', () => {
    const text = 'Version 1.2.3, see https://example.org/a?b=1. It works!';
    expect(ok(run({ action: 'fix', params: { text } }), 'fix')).toMatchObject({ text, changed: false });
  });

  it('check: reports each issue with rule, severity, line and column', () => {
    const data = ok(run({ action: 'check', params: { text: '价格是100元,很便宜。\n第二行：好的 ，谢谢' } }), 'check');
    const issues = data.issues.map((i: any) => [i.rule, i.severity, i.line, i.column, i.found, i.suggestion]);
    expect(issues).toEqual([
      ['cjk-latin-spacing', 'info', 1, 4, '', ' '],
      ['cjk-latin-spacing', 'info', 1, 7, '', ' '],
      ['halfwidth-punct', 'error', 1, 8, ',', '，'],
      ['space-around-fullwidth', 'error', 2, 7, ' ', ''],
    ]);
    expect(data.counts).toEqual({ info: 2, error: 2 });
    expect(data.stats).toMatchObject({ lines: 2 });
    expect(ok(run({ action: 'check', params: { text: '价格是100元', check_spacing: false } }), 'check').issues).toEqual([]);
  });

  it('rules: lists every rule', () => {
    const data = ok(run({ action: 'rules' }), 'rules');
    expect(data.rules.map((r: { rule: string }) => r.rule)).toContain('halfwidth-punct');
    expect(data.rules).toHaveLength(8);
  });

  it('unknown action → UNKNOWN_ACTION; missing text → MISSING_PARAM; bad JSON → INVALID_JSON', () => {
    expect(run({ action: 'translate', params: { text: 'x' } }).envelope).toMatchObject({ success: false, action: 'translate', error: { code: 'UNKNOWN_ACTION' } });
    expect(run({ action: 'check', params: {} }).envelope).toMatchObject({ success: false, action: 'check', error: { code: 'MISSING_PARAM', details: { param: 'text' } } });
    expect(run({ action: 'fix', params: { text: 1 } }).envelope.error.code).toBe('INVALID_PARAM');
    const bad = run('{"action":');
    expect(bad.envelope.error.code).toBe('INVALID_JSON');
    expect(bad.status).toBe(1);
  });

  it('SKILL_DEBUG=1 logs the request on stderr', () => {
    expect(run({ action: 'rules' }, { SKILL_DEBUG: '1' }).stderr).toContain('debug: request');
    expect(run({ action: 'rules' }).stderr).not.toContain('debug');
  });
});
