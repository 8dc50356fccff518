/**
 * csv-profile entry: profiles CSV text column by column.
 * Erasable TypeScript for Node's type stripping; only relative imports, no npm packages, no I/O.
 */
import { parseCsv } from './helpers/csv.ts';
import { inferType, isDate, isMissing, numericSummary, toNumber, topValues } from './helpers/stats.ts';
import type { ColumnType, NumericSummary } from './helpers/stats.ts';

export interface StepTrace {
  stepId: string;
  stepName: string;
  input: unknown;
  output: unknown;
  duration: number;
  timestamp?: number;
}

export interface SkillExecutionOutcome {
  output: unknown;
  format?: 'object' | 'text' | 'markdown' | 'json';
  status?: 'success' | 'error' | 'partial';
  message?: string;
  warnings?: string[];
  intermediateSteps?: StepTrace[];
  error?: { code: string; message: string; details?: unknown };
}

export interface ColumnProfile {
  index: number;
  name: string;
  type: ColumnType;
  count: number;
  missing: number;
  missingRatio: number;
  unique: number;
  minLength: number;
  maxLength: number;
  topValues: { value: string; count: number }[];
  numeric?: NumericSummary;
  dateRange?: { min: string; max: string };
}

export interface CsvProfile {
  delimiter: string;
  hasHeader: boolean;
  rowCount: number;
  columnCount: number;
  truncated: boolean;
  columns: ColumnProfile[];
}

const DEFAULT_MAX_ROWS = 100_000;

function fail(code: string, message: string, steps: StepTrace[]): SkillExecutionOutcome {
  return { output: null, format: 'object', status: 'error', message, error: { code, message }, intermediateSteps: steps };
}

function timed<T>(steps: StepTrace[], stepId: string, stepName: string, input: unknown, run: () => T, summarise: (r: T) => unknown): T {
  const start = performance.now();
  const result = run();
  steps.push({ stepId, stepName, input, output: summarise(result), duration: Math.round((performance.now() - start) * 1000) / 1000 });
  return result;
}

export async function execute(
  parameters: Record<string, unknown>,
  context?: Record<string, unknown>,
  config?: Record<string, unknown>,
): Promise<SkillExecutionOutcome> {
  void context;
  const steps: StepTrace[] = [];
  const csv = parameters.csv;
  if (typeof csv !== 'string') return fail('MISSING_PARAM', 'Parameter "csv" (CSV text) is required', steps);
  if (csv.trim() === '') return fail('INVALID_PARAM', 'Parameter "csv" is empty', steps);
  const delimiterParam = typeof parameters.delimiter === 'string' && parameters.delimiter !== '' ? parameters.delimiter.replace('\\t', '\t') : undefined;
  if (delimiterParam !== undefined && delimiterParam.length !== 1) {
    return fail('INVALID_PARAM', 'Parameter "delimiter" must be a single character', steps);
  }
  const hasHeader = parameters.hasHeader !== false;
  const configMax = typeof config?.maxRows === 'number' ? config.maxRows : DEFAULT_MAX_ROWS;
  const maxRows = typeof parameters.maxRows === 'number' && parameters.maxRows > 0 ? Math.min(parameters.maxRows, configMax) : configMax;
  const topN = typeof parameters.topValues === 'number' && parameters.topValues >= 0 ? Math.min(20, Math.floor(parameters.topValues)) : 5;

  const parsed = timed(
    steps, 'parse', 'Parse CSV',
    { bytes: csv.length, delimiter: delimiterParam ?? 'auto', maxRows },
    () => parseCsv(csv, delimiterParam, maxRows + 1 + (hasHeader ? 1 : 0)),
    (p) => ({ rows: p.rows.length, delimiter: p.delimiter, raggedRows: p.ragged.length }),
  );

  const warnings: string[] = [];
  const header = hasHeader ? (parsed.rows[0] ?? []) : [];
  const allRecords = hasHeader ? parsed.rows.slice(1) : parsed.rows;
  const truncated = allRecords.length > maxRows;
  const records = truncated ? allRecords.slice(0, maxRows) : allRecords;
  const width = records.reduce((w, r) => Math.max(w, r.length), header.length);
  const names: string[] = [];
  const seen = new Map<string, number>();
  for (let c = 0; c < width; c++) {
    let name = (header[c] ?? '').trim() || `column_${c + 1}`;
    const n = seen.get(name) ?? 0;
    seen.set(name, n + 1);
    if (n > 0) {
      warnings.push(`Duplicate column name "${name}" renamed to "${name}_${n + 1}"`);
      name = `${name}_${n + 1}`;
    }
    names.push(name);
  }
  if (parsed.ragged.length > 0) {
    const shown = parsed.ragged.slice(0, 5).join(', ');
    warnings.push(`${parsed.ragged.length} row(s) have a different number of fields than the first row (rows ${shown}${parsed.ragged.length > 5 ? ', …' : ''})`);
  }
  if (truncated) warnings.push(`Profiled the first ${maxRows} data rows only`);

  const types = timed(
    steps, 'infer', 'Infer column types',
    { columns: width, rows: records.length },
    () => names.map((_, c) => inferType(records.map((r) => r[c] ?? ''))),
    (t) => Object.fromEntries(names.map((n, i) => [n, t[i]])),
  );

  const columns = timed(
    steps, 'aggregate', 'Compute column statistics',
    { columns: width },
    () =>
      names.map((name, c): ColumnProfile => {
        const values = records.map((r) => r[c] ?? '');
        const present = values.filter((v) => !isMissing(v));
        const lengths = present.map((v) => [...v].length);
        const type = types[c] ?? 'string';
        const profile: ColumnProfile = {
          index: c,
          name,
          type,
          count: present.length,
          missing: values.length - present.length,
          missingRatio: values.length ? Math.round(((values.length - present.length) / values.length) * 10000) / 10000 : 0,
          unique: new Set(present).size,
          minLength: lengths.reduce((m, n) => Math.min(m, n), lengths.length ? Infinity : 0),
          maxLength: lengths.reduce((m, n) => Math.max(m, n), 0),
          topValues: topValues(present, topN),
        };
        if (type === 'integer' || type === 'number') {
          const summary = numericSummary(present.map(toNumber).filter((n): n is number => n !== null));
          if (summary) profile.numeric = summary;
        }
        if (type === 'date') {
          const dates = present.filter(isDate).map((v) => v.trim()).sort();
          if (dates.length) profile.dateRange = { min: dates[0] as string, max: dates[dates.length - 1] as string };
        }
        return profile;
      }),
    (cols) => cols.map((p) => ({ name: p.name, type: p.type, missing: p.missing, unique: p.unique })),
  );

  for (const col of columns) {
    if (col.type === 'empty') warnings.push(`Column "${col.name}" has no values`);
    else if (col.missingRatio >= 0.5) warnings.push(`Column "${col.name}" is ${Math.round(col.missingRatio * 100)}% missing`);
  }

  const output: CsvProfile = {
    delimiter: parsed.delimiter,
    hasHeader,
    rowCount: records.length,
    columnCount: width,
    truncated,
    columns,
  };
  return {
    output,
    format: 'object',
    status: 'success',
    message: `Profiled ${records.length} row(s) × ${width} column(s)`,
    warnings,
    intermediateSteps: steps,
  };
}
