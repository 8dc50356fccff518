/**
 * Unit tables. Every linear unit is stored as its factor to the dimension's base unit
 * (metre, kilogram, litre, second, byte, metre per second, square metre, pascal, joule).
 * Temperatures are affine and handled separately.
 */

export interface UnitDef {
  symbol: string;
  name: string;
  dimension: string;
  /** Multiply by this to get the base unit (linear units). */
  factor: number;
  aliases: string[];
}

const table: [string, string, string, number, string[]][] = [
  // length (base: metre)
  ['mm', 'millimetre', 'length', 0.001, ['millimeter', 'millimeters', 'millimetres']],
  ['cm', 'centimetre', 'length', 0.01, ['centimeter', 'centimeters', 'centimetres']],
  ['m', 'metre', 'length', 1, ['meter', 'meters', 'metres']],
  ['km', 'kilometre', 'length', 1000, ['kilometer', 'kilometers', 'kilometres']],
  ['in', 'inch', 'length', 0.0254, ['inches', '"']],
  ['ft', 'foot', 'length', 0.3048, ['feet', "'"]],
  ['yd', 'yard', 'length', 0.9144, ['yards']],
  ['mi', 'mile', 'length', 1609.344, ['miles']],
  ['nmi', 'nautical mile', 'length', 1852, ['nautical miles']],
  // mass (base: kilogram)
  ['mg', 'milligram', 'mass', 1e-6, ['milligrams']],
  ['g', 'gram', 'mass', 0.001, ['grams']],
  ['kg', 'kilogram', 'mass', 1, ['kilograms', 'kilo', 'kilos']],
  ['t', 'tonne', 'mass', 1000, ['tonnes', 'metric ton']],
  ['oz', 'ounce', 'mass', 0.028349523125, ['ounces']],
  ['lb', 'pound', 'mass', 0.45359237, ['lbs', 'pounds']],
  ['st', 'stone', 'mass', 6.35029318, ['stones']],
  // volume (base: litre)
  ['ml', 'millilitre', 'volume', 0.001, ['milliliter', 'milliliters', 'millilitres']],
  ['l', 'litre', 'volume', 1, ['liter', 'liters', 'litres']],
  ['m3', 'cubic metre', 'volume', 1000, ['cubic meter', 'cubic meters']],
  ['tsp', 'US teaspoon', 'volume', 0.00492892159375, ['teaspoon', 'teaspoons']],
  ['tbsp', 'US tablespoon', 'volume', 0.01478676478125, ['tablespoon', 'tablespoons']],
  ['floz', 'US fluid ounce', 'volume', 0.0295735295625, ['fl oz', 'fluid ounce', 'fluid ounces']],
  ['cup', 'US cup', 'volume', 0.2365882365, ['cups']],
  ['pt', 'US pint', 'volume', 0.473176473, ['pint', 'pints']],
  ['qt', 'US quart', 'volume', 0.946352946, ['quart', 'quarts']],
  ['gal', 'US gallon', 'volume', 3.785411784, ['gallon', 'gallons']],
  ['impgal', 'imperial gallon', 'volume', 4.54609, ['imperial gallon', 'imperial gallons']],
  // time (base: second)
  ['ms', 'millisecond', 'time', 0.001, ['milliseconds']],
  ['s', 'second', 'time', 1, ['sec', 'secs', 'seconds']],
  ['min', 'minute', 'time', 60, ['mins', 'minutes']],
  ['h', 'hour', 'time', 3600, ['hr', 'hrs', 'hours']],
  ['d', 'day', 'time', 86400, ['days']],
  ['wk', 'week', 'time', 604800, ['week', 'weeks']],
  // data (base: byte)
  ['bit', 'bit', 'data', 0.125, ['bits']],
  ['B', 'byte', 'data', 1, ['bytes']],
  ['kB', 'kilobyte', 'data', 1e3, ['kilobyte', 'kilobytes']],
  ['MB', 'megabyte', 'data', 1e6, ['megabyte', 'megabytes']],
  ['GB', 'gigabyte', 'data', 1e9, ['gigabyte', 'gigabytes']],
  ['TB', 'terabyte', 'data', 1e12, ['terabyte', 'terabytes']],
  ['KiB', 'kibibyte', 'data', 1024, ['kibibyte', 'kibibytes']],
  ['MiB', 'mebibyte', 'data', 1024 ** 2, ['mebibyte', 'mebibytes']],
  ['GiB', 'gibibyte', 'data', 1024 ** 3, ['gibibyte', 'gibibytes']],
  ['TiB', 'tebibyte', 'data', 1024 ** 4, ['tebibyte', 'tebibytes']],
  // speed (base: metre per second)
  ['m/s', 'metre per second', 'speed', 1, ['mps', 'meters per second']],
  ['km/h', 'kilometre per hour', 'speed', 1000 / 3600, ['kph', 'kmh', 'kilometers per hour']],
  ['mph', 'mile per hour', 'speed', 1609.344 / 3600, ['miles per hour']],
  ['kn', 'knot', 'speed', 1852 / 3600, ['knot', 'knots', 'kt']],
  // area (base: square metre)
  ['m2', 'square metre', 'area', 1, ['sqm', 'square meter', 'square meters']],
  ['km2', 'square kilometre', 'area', 1e6, ['square kilometer', 'square kilometers']],
  ['ha', 'hectare', 'area', 1e4, ['hectare', 'hectares']],
  ['acre', 'acre', 'area', 4046.8564224, ['acres', 'ac']],
  ['ft2', 'square foot', 'area', 0.09290304, ['sqft', 'square foot', 'square feet']],
  // pressure (base: pascal)
  ['Pa', 'pascal', 'pressure', 1, ['pascal', 'pascals']],
  ['kPa', 'kilopascal', 'pressure', 1000, ['kilopascal', 'kilopascals']],
  ['bar', 'bar', 'pressure', 100000, ['bars']],
  ['atm', 'standard atmosphere', 'pressure', 101325, ['atmosphere', 'atmospheres']],
  ['psi', 'pound per square inch', 'pressure', 6894.757293168361, ['pounds per square inch']],
  // energy (base: joule)
  ['J', 'joule', 'energy', 1, ['joule', 'joules']],
  ['kJ', 'kilojoule', 'energy', 1000, ['kilojoule', 'kilojoules']],
  ['cal', 'calorie', 'energy', 4.184, ['calorie', 'calories']],
  ['kcal', 'kilocalorie', 'energy', 4184, ['kilocalorie', 'kilocalories', 'Cal']],
  ['Wh', 'watt-hour', 'energy', 3600, ['watt hour', 'watt hours']],
  ['kWh', 'kilowatt-hour', 'energy', 3.6e6, ['kilowatt hour', 'kilowatt hours']],
];

export const TEMPERATURES: Record<string, { name: string; aliases: string[] }> = {
  C: { name: 'degree Celsius', aliases: ['°c', 'celsius', 'degc', 'centigrade'] },
  F: { name: 'degree Fahrenheit', aliases: ['°f', 'fahrenheit', 'degf'] },
  K: { name: 'kelvin', aliases: ['kelvin', 'kelvins'] },
};

export const UNITS: UnitDef[] = table.map(([symbol, name, dimension, factor, aliases]) => ({ symbol, name, dimension, factor, aliases }));

export const DIMENSIONS: string[] = [...new Set(UNITS.map((u) => u.dimension)), 'temperature'];

const exact = new Map<string, UnitDef>();
const exactAlias = new Map<string, UnitDef>();
const folded = new Map<string, UnitDef>();
for (const u of UNITS) {
  exact.set(u.symbol, u);
  for (const a of u.aliases) if (!exactAlias.has(a)) exactAlias.set(a, u);
  for (const key of [u.symbol, u.name, ...u.aliases]) if (!folded.has(key.toLowerCase())) folded.set(key.toLowerCase(), u);
}

export type Resolved = { kind: 'linear'; unit: UnitDef } | { kind: 'temperature'; symbol: 'C' | 'F' | 'K' };

/**
 * Finds a unit by symbol, then by alias, both case-sensitive (`Cal` is kcal, `cal` is calorie),
 * then by symbol, name or alias case-insensitively (`mb` → MB, `Miles` → mi).
 */
export function resolveUnit(raw: string): Resolved | undefined {
  const s = raw.trim();
  const t = s.replace(/^°\s*/, '°').replace(/^deg\s+/i, 'deg');
  if (t === 'C' || t === 'F' || t === 'K') return { kind: 'temperature', symbol: t };
  for (const [symbol, def] of Object.entries(TEMPERATURES)) {
    if (def.aliases.includes(t.toLowerCase()) || def.name.toLowerCase() === t.toLowerCase()) {
      return { kind: 'temperature', symbol: symbol as 'C' | 'F' | 'K' };
    }
  }
  const unit = exact.get(s) ?? exactAlias.get(s) ?? folded.get(s.toLowerCase());
  return unit ? { kind: 'linear', unit } : undefined;
}

export function toKelvin(value: number, from: 'C' | 'F' | 'K'): number {
  if (from === 'C') return value + 273.15;
  if (from === 'F') return ((value - 32) * 5) / 9 + 273.15;
  return value;
}

export function fromKelvin(kelvin: number, to: 'C' | 'F' | 'K'): number {
  if (to === 'C') return kelvin - 273.15;
  if (to === 'F') return ((kelvin - 273.15) * 9) / 5 + 32;
  return kelvin;
}

/** Rounds to `digits` significant digits and removes binary noise such as 0.30000000000000004. */
export function roundSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits));
}
