/**
 * unit-converter entry. ABP tools: `convert` and `listUnits`; the tool is chosen by
 * `parameters.tool` (default: `convert` when `value` is present, otherwise `listUnits`).
 * Tool arguments may be given flat in `parameters` or nested under `parameters.arguments`.
 */
import { DIMENSIONS, TEMPERATURES, UNITS, fromKelvin, resolveUnit, roundSignificant, toKelvin } from './helpers/units.ts';
import type { Resolved } from './helpers/units.ts';

interface StepTrace {
  stepId: string;
  stepName: string;
  input: unknown;
  output: unknown;
  duration: number;
}

interface SkillExecutionOutcome {
  output: unknown;
  format?: 'object' | 'text' | 'markdown' | 'json';
  status?: 'success' | 'error' | 'partial';
  message?: string;
  warnings?: string[];
  intermediateSteps?: StepTrace[];
  error?: { code: string; message: string; details?: unknown };
}

const TOOLS = ['convert', 'listUnits'];

function error(code: string, message: string, details?: unknown, steps: StepTrace[] = []): SkillExecutionOutcome {
  return { output: null, format: 'object', status: 'error', message, error: { code, message, details }, intermediateSteps: steps };
}

function describe(r: Resolved): { symbol: string; name: string; dimension: string } {
  return r.kind === 'temperature'
    ? { symbol: r.symbol, name: TEMPERATURES[r.symbol]?.name ?? r.symbol, dimension: 'temperature' }
    : { symbol: r.unit.symbol, name: r.unit.name, dimension: r.unit.dimension };
}

function suggestions(raw: string): string[] {
  const q = raw.trim().toLowerCase();
  const all = [...UNITS.map((u) => u.symbol), ...Object.keys(TEMPERATURES)];
  return all.filter((s) => s.toLowerCase().startsWith(q.slice(0, 1))).slice(0, 8);
}

function convert(args: Record<string, unknown>, config: Record<string, unknown> | undefined): SkillExecutionOutcome {
  const steps: StepTrace[] = [];
  const t0 = performance.now();
  const rawValue = args.value;
  const value = typeof rawValue === 'string' && rawValue.trim() !== '' ? Number(rawValue) : rawValue;
  if (rawValue === undefined || rawValue === null) return error('MISSING_PARAM', 'convert needs "value"', { param: 'value' });
  if (typeof value !== 'number' || !Number.isFinite(value)) return error('INVALID_PARAM', `"value" must be a finite number, got ${JSON.stringify(rawValue)}`, { param: 'value' });
  for (const key of ['from', 'to'] as const) {
    if (typeof args[key] !== 'string' || (args[key] as string).trim() === '') return error('MISSING_PARAM', `convert needs "${key}" (a unit symbol or name)`, { param: key });
  }
  const fromRaw = args.from as string;
  const toRaw = args.to as string;
  const from = resolveUnit(fromRaw);
  const to = resolveUnit(toRaw);
  steps.push({
    stepId: 'resolve',
    stepName: 'Resolve units',
    input: { from: fromRaw, to: toRaw },
    output: { from: from ? describe(from) : null, to: to ? describe(to) : null },
    duration: Math.round((performance.now() - t0) * 1000) / 1000,
  });
  if (!from) return error('INVALID_PARAM', `Unknown unit "${fromRaw}"`, { param: 'from', didYouMean: suggestions(fromRaw) }, steps);
  if (!to) return error('INVALID_PARAM', `Unknown unit "${toRaw}"`, { param: 'to', didYouMean: suggestions(toRaw) }, steps);
  const fromInfo = describe(from);
  const toInfo = describe(to);
  if (fromInfo.dimension !== toInfo.dimension) {
    return error('INVALID_PARAM', `Cannot convert ${fromInfo.dimension} (${fromInfo.symbol}) to ${toInfo.dimension} (${toInfo.symbol})`, { from: fromInfo, to: toInfo }, steps);
  }

  const t1 = performance.now();
  let raw: number;
  if (from.kind === 'temperature' && to.kind === 'temperature') raw = fromKelvin(toKelvin(value, from.symbol), to.symbol);
  else if (from.kind === 'linear' && to.kind === 'linear') raw = (value * from.unit.factor) / to.unit.factor;
  else return error('INTERNAL_ERROR', 'unit kinds disagree', undefined, steps);
  const configPrecision = typeof config?.precision === 'number' ? config.precision : 10;
  const precisionArg = typeof args.precision === 'string' ? Number(args.precision) : args.precision;
  const precision = typeof precisionArg === 'number' && Number.isInteger(precisionArg) && precisionArg >= 1 && precisionArg <= 15 ? precisionArg : configPrecision;
  const result = roundSignificant(raw, precision);
  steps.push({
    stepId: 'convert',
    stepName: 'Convert value',
    input: { value, from: fromInfo.symbol, to: toInfo.symbol, precision },
    output: { result },
    duration: Math.round((performance.now() - t1) * 1000) / 1000,
  });
  const warnings: string[] = [];
  if (to.kind === 'temperature' && toKelvin(value, from.kind === 'temperature' ? from.symbol : 'K') < 0) {
    warnings.push('The value is below absolute zero');
  }
  const formatted = `${value} ${fromInfo.symbol} = ${result} ${toInfo.symbol}`;
  return {
    output: { value, from: fromInfo, to: toInfo, result, formatted, dimension: fromInfo.dimension },
    format: 'object',
    status: 'success',
    message: formatted,
    warnings,
    intermediateSteps: steps,
  };
}

function listUnits(args: Record<string, unknown>): SkillExecutionOutcome {
  const t0 = performance.now();
  const dimension = typeof args.dimension === 'string' && args.dimension !== '' ? args.dimension.toLowerCase() : undefined;
  if (dimension !== undefined && !DIMENSIONS.includes(dimension)) {
    return error('INVALID_PARAM', `Unknown dimension "${args.dimension}"`, { param: 'dimension', allowed: DIMENSIONS });
  }
  const units = [
    ...UNITS.map((u) => ({ symbol: u.symbol, name: u.name, dimension: u.dimension, aliases: u.aliases })),
    ...Object.entries(TEMPERATURES).map(([symbol, t]) => ({ symbol, name: t.name, dimension: 'temperature', aliases: t.aliases })),
  ].filter((u) => dimension === undefined || u.dimension === dimension);
  return {
    output: { dimensions: dimension ? [dimension] : DIMENSIONS, units, count: units.length },
    format: 'object',
    status: 'success',
    message: `${units.length} unit(s)`,
    intermediateSteps: [
      { stepId: 'list', stepName: 'List units', input: { dimension: dimension ?? null }, output: { count: units.length }, duration: Math.round((performance.now() - t0) * 1000) / 1000 },
    ],
  };
}

export async function execute(
  parameters: Record<string, unknown>,
  context?: Record<string, unknown>,
  config?: Record<string, unknown>,
): Promise<SkillExecutionOutcome> {
  void context;
  const nested = parameters.arguments;
  const args: Record<string, unknown> =
    nested !== null && typeof nested === 'object' && !Array.isArray(nested) ? { ...parameters, ...(nested as Record<string, unknown>) } : parameters;
  const tool = typeof parameters.tool === 'string' ? parameters.tool : 'value' in args ? 'convert' : 'listUnits';
  if (tool === 'convert') return convert(args, config);
  if (tool === 'listUnits') return listUnits(args);
  return error('UNKNOWN_ACTION', `Unknown tool "${tool}"`, { supported_tools: TOOLS });
}
