/**
 * Column type inference and summary statistics. Pure functions, no imports.
 */

export type ColumnType = 'empty' | 'boolean' | 'integer' | 'number' | 'date' | 'string';

const MISSING = new Set(['', 'na', 'n/a', 'null', 'none', 'nan', '-', '?']);
const BOOLEAN = new Set(['true', 'false', 'yes', 'no', 'y', 'n']);
const INTEGER = /^[+-]?\d{1,15}$/;
const NUMBER = /^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?%?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function isMissing(value: string): boolean {
  return MISSING.has(value.trim().toLowerCase());
}

/** Numeric value of a cell: thousands separators and a trailing % are accepted (50% → 50). */
export function toNumber(value: string): number | null {
  const v = value.trim();
  if (v === '' || !NUMBER.test(v) || !/\d/.test(v)) return null;
  const n = Number(v.replace(/,/g, '').replace(/%$/, ''));
  return Number.isFinite(n) ? n : null;
}

export function isDate(value: string): boolean {
  const v = value.trim();
  if (!ISO_DATE.test(v)) return false;
  return !Number.isNaN(Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v));
}

/** The narrowest type every non-missing value fits. */
export function inferType(values: string[]): ColumnType {
  const present = values.filter((v) => !isMissing(v)).map((v) => v.trim());
  if (present.length === 0) return 'empty';
  if (present.every((v) => BOOLEAN.has(v.toLowerCase()))) return 'boolean';
  if (present.every((v) => INTEGER.test(v))) return 'integer';
  if (present.every((v) => toNumber(v) !== null)) return 'number';
  if (present.every(isDate)) return 'date';
  return 'string';
}

const round = (n: number, digits = 4): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export interface NumericSummary {
  min: number;
  max: number;
  mean: number;
  median: number;
  stddev: number;
  sum: number;
}

export function numericSummary(numbers: number[]): NumericSummary | null {
  if (numbers.length === 0) return null;
  const sorted = [...numbers].sort((a, b) => a - b);
  const sum = sorted.reduce((s, n) => s + n, 0);
  const mean = sum / sorted.length;
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  // Sample standard deviation (n - 1), 0 for a single value.
  const variance = sorted.length > 1 ? sorted.reduce((s, n) => s + (n - mean) ** 2, 0) / (sorted.length - 1) : 0;
  return {
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    mean: round(mean),
    median: round(median),
    stddev: round(Math.sqrt(variance)),
    sum: round(sum),
  };
}

/** Most frequent values, ties broken by first appearance. */
export function topValues(values: string[], limit: number): { value: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([value, count]) => ({ value, count }));
}
