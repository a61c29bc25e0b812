/**
 * Stable JSON: object keys sorted by code unit, arrays kept in order, a trailing newline.
 * Every artifact skillc writes goes through here so that the same IR gives the same bytes.
 */

export function stableStringify(value: unknown, indent = 2): string {
  return serialise(value, indent, '') + '\n';
}

function serialise(value: unknown, indent: number, pad: string): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // NaN and ±Infinity have no JSON form; null is what JSON.stringify would write.
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value.toString());
    case 'object':
      break;
    default:
      return 'null';
  }
  const inner = indent > 0 ? pad + ' '.repeat(indent) : '';
  const nl = indent > 0 ? '\n' : '';
  const colon = indent > 0 ? ': ' : ':';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => inner + serialise(v, indent, inner));
    return '[' + nl + items.join(',' + nl) + nl + pad + ']';
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort(compareCodeUnits)
    .map((k) => inner + JSON.stringify(k) + colon + serialise((value as Record<string, unknown>)[k], indent, inner));
  if (entries.length === 0) return '{}';
  return '{' + nl + entries.join(',' + nl) + nl + pad + '}';
}

/** Locale-independent ordering (plain UTF-16 code unit comparison), used for every sort of names. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
