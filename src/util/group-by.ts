/** Items grouped by a key, groups in order of first appearance and items in input order. */
export function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    let list = m.get(k);
    if (!list) m.set(k, (list = []));
    list.push(x);
  }
  return m;
}
