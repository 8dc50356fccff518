/**
 * One-line function signatures from JSON Schemas, the way docs/skill-json.md presents a skill:
 * `code_review(code: string, language?: "typescript" | "python", severity?: "critical" | "all" = "all") → { issues: object[], passed: boolean }`.
 */

type Schema = Record<string, unknown>;

const MAX_UNION = 4;

/** A compact type expression for a schema. */
export function typeExpression(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object') return 'any';
  const s = schema as Schema;
  if (Array.isArray(s.enum)) {
    const values = s.enum.slice(0, MAX_UNION).map((v) => JSON.stringify(v));
    return values.join(' | ') + (s.enum.length > MAX_UNION ? ' | …' : '');
  }
  if ('const' in s) return JSON.stringify(s.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) return (s[key] as unknown[]).map((x) => typeExpression(x, depth)).join(' | ');
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).join(' | ') : (s.type as string | undefined);
  if (type === 'array') {
    const item = typeExpression(s.items, depth + 1);
    return `${item.includes(' ') && !item.startsWith('{') ? `(${item})` : item}[]`;
  }
  if (type === 'object' || (type === undefined && s.properties)) {
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const keys = Object.keys(props);
    if (keys.length === 0) return 'object';
    if (depth >= 1) return 'object';
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    return `{ ${keys.map((k) => `${k}${required.has(k) ? '' : '?'}: ${typeExpression(props[k], depth + 1)}`).join(', ')} }`;
  }
  if (type === 'integer') return 'integer';
  return type ?? 'any';
}

/** Parameter list of an object input schema: `code: string, limit?: number = 5`. */
export function parameterList(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const s = input as Schema;
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  return Object.entries(props)
    .map(([name, prop]) => {
      const optional = required.has(name) ? '' : '?';
      const fallback = prop && typeof prop === 'object' && 'default' in prop ? ` = ${JSON.stringify(prop.default)}` : '';
      return `${name}${optional}: ${typeExpression(prop, 1)}${fallback}`;
    })
    .join(', ');
}

/**
 * @example
 * functionSignature('memory_search', { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }, { type: 'object', properties: { results: { type: 'array' } } })
 * // 'memory_search(query: string) → { results?: any[] }'
 */
export function functionSignature(name: string, input: unknown, output: unknown): string {
  return `${name}(${parameterList(input)}) → ${typeExpression(output)}`;
}
