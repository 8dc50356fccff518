/**
 * Bounds for what an MCP client may send as tool arguments. A client is untrusted: a model can be
 * talked into sending megabytes or a thousand nested arrays, and the runtime's schema checks
 * recurse. The walk here is iterative, so it cannot itself overflow the stack.
 */
const INPUT_LIMITS = {
  /** Approximate JSON size of one call's arguments. */
  maxBytes: 1024 * 1024,
  /** Nesting of objects and arrays. */
  maxDepth: 64,
  /** Values in total (objects, arrays, strings, numbers…). */
  maxNodes: 100_000,
} as const;

/**
 * Returns why `value` exceeds {@link INPUT_LIMITS}, or undefined when it fits.
 *
 * @example
 * inputProblem({ text: 'hi' });                // undefined
 * inputProblem(JSON.parse('['.repeat(100) + ']'.repeat(100))); // 'arguments nest deeper than 64 levels'
 */
export function inputProblem(value: unknown, limits: typeof INPUT_LIMITS = INPUT_LIMITS): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  let bytes = 0;
  let nodes = 0;
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    nodes += 1;
    if (nodes > limits.maxNodes) return `arguments hold more than ${limits.maxNodes} values`;
    if (typeof current === 'string') bytes += Buffer.byteLength(current) + 2;
    else if (current !== null && typeof current === 'object') {
      if (depth > limits.maxDepth) return `arguments nest deeper than ${limits.maxDepth} levels`;
      if (Array.isArray(current)) for (const item of current) stack.push([item, depth + 1]);
      else {
        for (const [key, item] of Object.entries(current)) {
          bytes += Buffer.byteLength(key) + 3;
          stack.push([item, depth + 1]);
        }
      }
      bytes += 2;
    } else bytes += 8;
    if (bytes > limits.maxBytes) return `arguments are larger than ${limits.maxBytes / 1024 / 1024} MB`;
  }
  return undefined;
}
