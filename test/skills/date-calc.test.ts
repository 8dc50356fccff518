import { describe, expect, it } from 'vitest';
import { ok, runScript } from './_protocol.ts';

const SCRIPT = 'productivity/date-calc/scripts/date_calc.py';
const call = (action: string, params: Record<string, unknown>) => runScript('python3', SCRIPT, { action, params });

describe('date-calc scripts/date_calc.py', () => {
  it('counts calendar and business days across month ends and leap years', () => {
    expect(ok(call('daysBetween', { start: '2024-02-01', end: '2024-03-01' }), 'daysBetween')).toEqual({ start: '2024-02-01', end: '2024-03-01', days: 29, weeks: 4.14 });
    expect(ok(call('daysBetween', { start: '2023-02-01', end: '2023-03-01', businessDays: true }), 'daysBetween')).toMatchObject({ days: 28, businessDays: 20 });
    expect(ok(call('daysBetween', { start: '2026-03-01', end: '2026-01-01' }), 'daysBetween').days).toBe(-59);
  });

  it('adds calendar and business days, from weekdays and from weekends', () => {
    expect(ok(call('addDays', { date: '2026-11-20', days: 3, businessDays: true }), 'addDays')).toEqual({ date: '2026-11-20', days: 3, result: '2026-11-25', weekday: 'Wednesday' });
    // Saturday + 5 working days is the next Friday; Sunday - 1 is the Friday before.
    expect(ok(call('addDays', { date: '2026-11-21', days: 5, businessDays: true }), 'addDays').result).toBe('2026-11-27');
    expect(ok(call('addDays', { date: '2026-11-22', days: -1, businessDays: true }), 'addDays').result).toBe('2026-11-20');
    expect(ok(call('addDays', { date: '2024-12-31', days: 60 }), 'addDays').result).toBe('2025-03-01');
  });

  it('names weekdays in English, Chinese and Japanese with the ISO week', () => {
    expect(ok(call('weekday', { date: '2026-11-23', locale: 'zh' }), 'weekday')).toEqual({ date: '2026-11-23', weekday: 'Monday', isoWeekday: 1, localized: '星期一', isoWeek: 48, dayOfYear: 327 });
    expect(ok(call('weekday', { date: '2027-01-01', locale: 'ja' }), 'weekday')).toMatchObject({ localized: '金曜日', isoWeek: 53 });
  });

  it('refuses impossible dates, out-of-range results and unknown actions with protocol codes', () => {
    const feb30 = call('weekday', { date: '2026-02-30' });
    expect(feb30.status).toBe(1);
    expect(feb30.envelope.error).toMatchObject({ code: 'INVALID_PARAM', details: { hint: expect.stringContaining('February') } });
    expect(call('addDays', { date: '9999-12-31', days: 1 }).envelope.error.code).toBe('INVALID_PARAM');
    expect(call('addDays', { date: '2026-01-01' }).envelope.error.code).toBe('MISSING_PARAM');
    expect(call('weekday', { date: '01/02/2026' }).envelope.error.code).toBe('INVALID_PARAM');
    expect(call('nextMonday', {}).envelope.error).toMatchObject({ code: 'UNKNOWN_ACTION', details: { supported_actions: ['daysBetween', 'addDays', 'weekday'] } });
    expect(runScript('python3', SCRIPT, 'not json').envelope.error.code).toBe('INVALID_JSON');
  });
});
