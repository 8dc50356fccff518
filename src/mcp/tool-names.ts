import { createHash } from 'node:crypto';

/**
 * The tool names every MCP client accepts. The MCP SDK allows `[A-Za-z0-9._-]{1,128}`, but
 * several hosts forward tool names to model APIs that accept only `^[a-zA-Z0-9_-]{1,64}$`, so
 * names are kept inside that narrower set.
 */
export const MCP_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const MAX = 64;
const HASH_LENGTH = 8;

const shortHash = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, HASH_LENGTH);

/**
 * Gives every key (e.g. `unit-converter__convert`) a valid, unique MCP tool name. A key that is
 * already valid, not reserved and not shared keeps its spelling; any other key (too long, illegal
 * characters that map onto another key's spelling, a clash with a reserved name) gets its legal
 * prefix plus a hash of the key itself. The result depends only on the set of keys, never on
 * their order, so a server lists the same names every time.
 *
 * @example
 * assignToolNames(['a.b', 'a_b'], new Set()); // Map { 'a.b' => 'a_b_1f0e…', 'a_b' => 'a_b_9c2d…' }
 */
export function assignToolNames(keys: Iterable<string>, reserved: ReadonlySet<string>): Map<string, string> {
  const unique = [...new Set(keys)].sort();
  const base = new Map(unique.map((key) => [key, key.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool']));
  const count = new Map<string, number>();
  for (const name of base.values()) count.set(name, (count.get(name) ?? 0) + 1);
  const names = new Map<string, string>();
  const taken = new Set(reserved);
  const hashed: string[] = [];
  for (const key of unique) {
    const name = base.get(key) as string;
    if (MCP_TOOL_NAME.test(name) && !reserved.has(name) && count.get(name) === 1) {
      names.set(key, name);
      taken.add(name);
    } else hashed.push(key);
  }
  for (const key of hashed) {
    let name = `${(base.get(key) as string).slice(0, MAX - HASH_LENGTH - 1)}_${shortHash(key)}`;
    // A 32-bit clash with another name is all but impossible; salt deterministically if it happens.
    for (let salt = 1; taken.has(name); salt += 1) name = `${name.slice(0, MAX - HASH_LENGTH - 1)}_${shortHash(`${key}#${salt}`)}`;
    names.set(key, name);
    taken.add(name);
  }
  return names;
}
