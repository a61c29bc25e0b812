/** x rounded to `places` decimals: how every score skillc writes is rounded (stable bytes, readable JSON). */
export function roundTo(x: number, places: number): number {
  const f = 10 ** places;
  return Math.round(x * f) / f;
}
