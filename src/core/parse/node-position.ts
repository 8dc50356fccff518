import { isMap, isScalar, type Document, type Node } from 'yaml';

/**
 * Offset of the value at `path` in a parsed YAML (or JSON) document. For a path that does not
 * exist, the closest existing ancestor — or the key of a pair whose value is missing — so a
 * diagnostic always points somewhere useful.
 */
export function nodeOffset(doc: Document, path: readonly (string | number)[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as Node | undefined;
    if (node && typeof node === 'object' && node.range) return node.range[0];
    if (n > 0) {
      const parent = doc.getIn(path.slice(0, n - 1), true);
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(path[n - 1]));
        if (pair && isScalar(pair.key) && pair.key.range) return pair.key.range[0];
      }
    }
  }
  return 0;
}
