/**
 * Levenshtein distance with an upper bound, for "did you mean" suggestions (an unknown skill path
 * or contract id a caller typed). Stops as soon as every cell of a row exceeds the bound, so a
 * suggestion pass over a few thousand names costs little.
 */

/** The edit distance of a and b (UTF-16 units), or bound + 1 when it is larger than bound. */
export function boundedEditDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > bound) return bound + 1;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * Up to `max` of `names` close to `asked`: those within an edit distance of a quarter of its length
 * (at least 2), nearest first, then those that contain it or that it contains; ties in name order.
 */
export function closestNames(asked: string, names: readonly string[], max = 5): string[] {
  const key = asked.toLowerCase();
  const bound = Math.max(2, Math.floor(key.length / 4));
  const scored: { name: string; d: number }[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const last = lower.slice(lower.lastIndexOf('/') + 1);
    const d = Math.min(boundedEditDistance(key, lower, bound), boundedEditDistance(key, last, bound));
    if (d <= bound) scored.push({ name, d });
    else if (key.length >= 3 && (lower.includes(key) || key.includes(last))) scored.push({ name, d: bound + 1 });
  }
  return scored.sort((x, y) => x.d - y.d || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)).slice(0, max).map((s) => s.name);
}
