import { describe, expect, it } from 'vitest';
import { SkillExecutionOutcome } from '../../src/core/schemas/outcome.ts';
import { execute as actionItems } from '../../skills/productivity/action-items/scripts/execute.ts';
import { execute as csvProfile } from '../../skills/data/csv-profile/scripts/execute.ts';
import { execute as unitConverter } from '../../skills/data/unit-converter/scripts/execute.ts';

/** Every outcome must be a valid seed 001 SkillExecutionOutcome. */
function checked(outcome: unknown): any {
  const parsed = SkillExecutionOutcome.safeParse(outcome);
  if (!parsed.success) throw new Error(`not a SkillExecutionOutcome: ${parsed.error.message}`);
  return outcome;
}

describe('csv-profile scripts/execute.ts', () => {
  const csv = 'id;name;price;in_stock;added;note\r\n1;"Widget; large";1,200.50;yes;2024-01-05;\r\n2;Gadget;99;no;2024-03-01;"multi\nline"\r\n3;Doohickey;NA;yes;2023-12-31;\r\n';

  it('sniffs the delimiter, infers types and computes statistics', async () => {
    const r = checked(await csvProfile({ csv }, {}, {}));
    expect(r).toMatchObject({ format: 'object', status: 'success', message: 'Profiled 3 row(s) × 6 column(s)' });
    expect(r.output).toMatchObject({ delimiter: ';', hasHeader: true, rowCount: 3, columnCount: 6, truncated: false });
    const byName = Object.fromEntries(r.output.columns.map((c: any) => [c.name, c]));
    expect(Object.fromEntries(r.output.columns.map((c: any) => [c.name, c.type]))).toEqual({
      id: 'integer', name: 'string', price: 'number', in_stock: 'boolean', added: 'date', note: 'string',
    });
    expect(byName.id.numeric).toEqual({ min: 1, max: 3, mean: 2, median: 2, stddev: 1, sum: 6 });
    expect(byName.price).toMatchObject({ count: 2, missing: 1, missingRatio: 0.3333 });
    expect(byName.price.numeric).toMatchObject({ min: 99, max: 1200.5, mean: 649.75 });
    expect(byName.name.topValues[0]).toEqual({ value: 'Widget; large', count: 1 });
    expect(byName.in_stock.topValues).toEqual([{ value: 'yes', count: 2 }, { value: 'no', count: 1 }]);
    expect(byName.added.dateRange).toEqual({ min: '2023-12-31', max: '2024-03-01' });
    expect(byName.note.topValues).toEqual([{ value: 'multi\nline', count: 1 }]);
    expect(r.warnings).toEqual(['Column "note" is 67% missing']);
  });

  it('traces parse, infer and aggregate with durations', async () => {
    const r = checked(await csvProfile({ csv }, {}, {}));
    expect(r.intermediateSteps.map((s: any) => s.stepId)).toEqual(['parse', 'infer', 'aggregate']);
    for (const step of r.intermediateSteps) {
      expect(typeof step.duration).toBe('number');
      expect(step.duration).toBeGreaterThanOrEqual(0);
    }
    expect(r.intermediateSteps[0].output).toEqual({ rows: 4, delimiter: ';', raggedRows: 0 });
  });

  it('truncates at maxRows, flags ragged rows, names header-less columns', async () => {
    const r = checked(await csvProfile({ csv: 'a,b\n1,2\n3,4\n5\n', maxRows: 2 }, {}, {}));
    expect(r.output).toMatchObject({ rowCount: 2, truncated: true });
    expect(r.warnings).toContain('Profiled the first 2 data rows only');
    const noHeader = checked(await csvProfile({ csv: '1\tx\n2\ty\n', hasHeader: false }, {}, {}));
    expect(noHeader.output.delimiter).toBe('\t');
    expect(noHeader.output.columns.map((c: any) => c.name)).toEqual(['column_1', 'column_2']);
    const dup = checked(await csvProfile({ csv: 'a,a\n1,2\n' }, {}, {}));
    expect(dup.output.columns.map((c: any) => c.name)).toEqual(['a', 'a_2']);
  });

  it('returns an error outcome for missing or bad input', async () => {
    expect(checked(await csvProfile({}, {}, {}))).toMatchObject({ status: 'error', error: { code: 'MISSING_PARAM' } });
    expect(checked(await csvProfile({ csv: '  ' }, {}, {}))).toMatchObject({ status: 'error', error: { code: 'INVALID_PARAM' } });
    expect(checked(await csvProfile({ csv: 'a', delimiter: ';;' }, {}, {}))).toMatchObject({ status: 'error', error: { code: 'INVALID_PARAM' } });
  });
});

describe('unit-converter scripts/execute.ts (ABP tools)', () => {
  const convert = async (args: Record<string, unknown>) => checked(await unitConverter({ tool: 'convert', ...args }, {}, {}));

  it('convert: linear units and temperatures', async () => {
    expect((await convert({ value: 5, from: 'mi', to: 'km' })).output).toMatchObject({ result: 8.04672, formatted: '5 mi = 8.04672 km', dimension: 'length' });
    expect((await convert({ value: 100, from: 'F', to: 'C' })).output.result).toBe(37.77777778);
    expect((await convert({ value: 20, from: '°C', to: 'kelvin' })).output.result).toBe(293.15);
    expect((await convert({ value: 1, from: 'GiB', to: 'MB' })).output.result).toBe(1073.741824);
    expect((await convert({ value: 0.1, from: 'm', to: 'mm' })).output.result).toBe(100);
    expect((await convert({ value: 1, from: 'Cal', to: 'kJ' })).output.result).toBe(4.184);
    expect((await convert({ value: 2, from: 'cups', to: 'ml', precision: 3 })).output.result).toBe(473);
  });

  it('convert: accepts nested ABP arguments and numeric strings, and traces its steps', async () => {
    const r = checked(await unitConverter({ tool: 'convert', arguments: { value: '3', from: 'ft', to: 'm' } }, {}, {}));
    expect(r.output.result).toBe(0.9144);
    expect(r.intermediateSteps.map((s: any) => s.stepId)).toEqual(['resolve', 'convert']);
    expect(r.intermediateSteps.every((s: any) => typeof s.duration === 'number')).toBe(true);
  });

  it('convert: reports unknown units, mixed dimensions and missing values', async () => {
    expect(await convert({ value: 3, from: 'furlong', to: 'km' })).toMatchObject({ status: 'error', error: { code: 'INVALID_PARAM', details: { param: 'from' } } });
    expect((await convert({ value: 3, from: 'kg', to: 'km' })).error.message).toBe('Cannot convert mass (kg) to length (km)');
    expect(await convert({ from: 'kg', to: 'g' })).toMatchObject({ status: 'error', error: { code: 'MISSING_PARAM' } });
    expect(await convert({ value: 'lots', from: 'kg', to: 'g' })).toMatchObject({ status: 'error', error: { code: 'INVALID_PARAM' } });
  });

  it('listUnits: all units or one dimension; unknown tools are refused', async () => {
    const temps = checked(await unitConverter({ tool: 'listUnits', dimension: 'temperature' }, {}, {}));
    expect(temps.output.units.map((u: any) => u.symbol)).toEqual(['C', 'F', 'K']);
    const all = checked(await unitConverter({}, {}, {}));
    expect(all.output.dimensions).toContain('data');
    expect(all.output.count).toBeGreaterThan(50);
    expect(checked(await unitConverter({ tool: 'teleport' }, {}, {}))).toMatchObject({ status: 'error', error: { code: 'UNKNOWN_ACTION' } });
  });
});

describe('action-items scripts/execute.ts', () => {
  const notes = [
    '# Weekly sync',
    '',
    'Discussion:',
    '- Paris to host the offsite was discussed',
    '',
    '## Action items',
    '- Alice to send the revised deck by Friday',
    '- @bob update the release checklist (due 2026-03-10)',
    '- Carol: book the venue ASAP',
    '- Review the security findings',
    '- [x] Dan to merge the hotfix',
    '',
    'TODO: write the postmortem by next week',
    '待办：王伟负责整理会议纪要，周三前',
  ].join('\n');

  it('extracts items with owners, due dates, priority and status', async () => {
    const r = checked(await actionItems({ notes, meetingDate: '2026-03-02', meetingTitle: 'Weekly sync' }, { userId: 'u-1' }, {}));
    expect(r.status).toBe('success');
    expect(r.output.items.map((i: any) => [i.line, i.source, i.owner, i.text, i.dueDate, i.priority, i.done])).toEqual([
      [7, 'section', 'Alice', 'Send the revised deck', '2026-03-06', 'normal', false],
      [8, 'section', 'bob', 'Update the release checklist', '2026-03-10', 'normal', false],
      [9, 'section', 'Carol', 'Book the venue', null, 'high', false],
      [10, 'section', null, 'Review the security findings', null, 'normal', false],
      [11, 'checkbox', 'Dan', 'Merge the hotfix', null, 'normal', true],
      [13, 'marker', null, 'Write the postmortem', '2026-03-09', 'normal', false],
      [14, 'marker', '王伟', '整理会议纪要', '2026-03-04', 'normal', false],
    ]);
    expect(r.output.counts).toEqual({ total: 7, open: 6, done: 1, unassigned: 2, highPriority: 1 });
    expect(r.output.byOwner).toEqual({ Alice: ['ai-1'], bob: ['ai-2'], Carol: ['ai-3'], unassigned: ['ai-4', 'ai-6'], 王伟: ['ai-7'] });
    expect(r.output.checklist.split('\n')[0]).toBe('- [ ] Alice: Send the revised deck (due 2026-03-06)');
    expect(r.warnings).toEqual(['2 open item(s) have no owner: line 10, line 13']);
  });

  it('suggests a memory write per open item plus a meeting summary', async () => {
    const r = checked(await actionItems({ notes, meetingDate: '2026-03-02', meetingTitle: 'Weekly sync' }, { userId: 'u-1' }, {}));
    expect(r.memoryWrites).toHaveLength(7);
    expect(r.memoryWrites[0]).toEqual({
      ownerType: 'user',
      ownerId: 'u-1',
      type: 'event',
      importance: 3,
      content: 'Open action item from Weekly sync: Alice: Send the revised deck (due 2026-03-06)',
      metadata: { source: 'action-items', itemId: 'ai-1', owner: 'Alice', due: '2026-03-06', line: 7, meetingTitle: 'Weekly sync', meetingDate: '2026-03-02' },
    });
    expect(r.memoryWrites[2].importance).toBe(4);
    expect(r.memoryWrites.at(-1)).toMatchObject({ type: 'summary', content: 'Weekly sync (2026-03-02): 6 open action item(s) for Alice, Carol, bob, 王伟' });
    expect(r.intermediateSteps.map((s: any) => s.stepId)).toEqual(['extract', 'organise', 'memory']);
  });

  it('leaves relative dates unresolved without a meeting date, and can skip memory', async () => {
    const r = checked(await actionItems({ notes: 'TODO: ship it by Friday', remember: false, defaultOwner: 'me' }, {}, {}));
    expect(r.output.items[0]).toMatchObject({ owner: 'me', due: 'Friday', dueDate: null });
    expect(r.warnings[0]).toContain('pass meetingDate');
    expect(r.memoryWrites).toEqual([]);
    const none = checked(await actionItems({ notes: 'TODO: ship' }, {}, { memoryWrites: false }));
    expect(none.memoryWrites).toEqual([]);
  });

  it('returns error outcomes for bad input', async () => {
    expect(checked(await actionItems({}, {}, {}))).toMatchObject({ status: 'error', error: { code: 'MISSING_PARAM' } });
    expect(checked(await actionItems({ notes: 'x', meetingDate: 'next tuesday' }, {}, {}))).toMatchObject({ status: 'error', error: { code: 'INVALID_PARAM' } });
  });
});
