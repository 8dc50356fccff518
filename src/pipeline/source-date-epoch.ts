import { SourceDateEpochError } from './source-date-epoch-error.ts';

/**
 * The latest time an ISO 8601 date with a four-digit year shows (9999-12-31T23:59:59Z). Later
 * ones are written `+010000-…`, which sort before earlier times as text, and the build compares
 * times as text; past about the year 275760 JavaScript cannot represent the date at all.
 */
export const MAX_SOURCE_DATE_EPOCH = 253_402_300_799;

/**
 * The time SOURCE_DATE_EPOCH gives, in seconds, or undefined when it is unset or empty.
 * https://reproducible-builds.org/specs/source-date-epoch/ defines the value as "an ASCII
 * representation of an integer with no fractional component, identical to the output format of
 * date +%s", and says a build given a malformed value should fail: a build that ignored it would
 * publish times the person who set it did not ask for. Times before 1970 are refused too; no
 * source was changed then, and only a mistake gives one.
 *
 * @example
 * parseSourceDateEpoch('1700000000'); // 1700000000
 * parseSourceDateEpoch('abc'); // throws SourceDateEpochError
 */
export function parseSourceDateEpoch(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw new SourceDateEpochError(`SOURCE_DATE_EPOCH is '${value}', not a whole number of seconds`);
  return checkedSourceDateEpoch(Number(value), value);
}

/** `seconds` when a build can date its index with it; `shown` is how the value was written. */
export function checkedSourceDateEpoch(seconds: number, shown = String(seconds)): number {
  if (seconds < 0) throw new SourceDateEpochError(`SOURCE_DATE_EPOCH is ${shown}, a time before 1970`);
  if (seconds > MAX_SOURCE_DATE_EPOCH) throw new SourceDateEpochError(`SOURCE_DATE_EPOCH is ${shown}, a time after the year 9999`);
  if (!Number.isInteger(seconds)) throw new SourceDateEpochError(`SOURCE_DATE_EPOCH is ${shown}, not a whole number of seconds`);
  return seconds;
}
