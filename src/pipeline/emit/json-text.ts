/** Stable, human-diffable JSON as the registry publishes it: two-space indent and a final newline. */
export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
