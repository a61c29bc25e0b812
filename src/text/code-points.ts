/**
 * Lengths and cuts counted in code points, so that a bound on "characters" never splits a surrogate
 * pair: the query quote and the one-line skill descriptions of answers use them.
 */
/** The UTF-16 offset just past the first `n` code points of `text` (a surrogate pair is not split). */
export function cutAtCodePoints(text: string, n: number): number {
  let i = 0;
  for (let seen = 0; seen < n && i < text.length; seen++) i += isPairAt(text, i) ? 2 : 1;
  return i;
}

export function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; count++) i += isPairAt(text, i) ? 2 : 1;
  return count;
}

function isPairAt(text: string, i: number): boolean {
  const hi = text.charCodeAt(i);
  const lo = text.charCodeAt(i + 1);
  return hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
}
