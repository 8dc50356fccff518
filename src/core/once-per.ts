/**
 * `compute`, run at most once per key however often it is asked for: a file's decoded text, its
 * URLs or its hidden-character runs, read by several rules. Keys are held weakly, so the results
 * go when the file does.
 *
 * @example const urlsIn = oncePer((file: SkillTextFile) => findUrls(file.text));
 */
export function oncePer<Key extends object, T>(compute: (key: Key) => T): (key: Key) => T {
  const cache = new WeakMap<Key, T>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, compute(key));
    return cache.get(key) as T;
  };
}
