/**
 * Stable JSON: object keys sorted by code unit, arrays kept in order, a trailing newline.
 * Every artifact skillc writes goes through here so that the same IR gives the same bytes.
 */

export function stableStringify(value: unknown, indent = 2): string {
  return stableText(value, indent) + '\n';
}

/**
 * The text of `value` as `serialise` writes it, read `depth` levels down in a document: every line
 * but the first indented by depth × indent more spaces, as indentedBy would make it. Most
 * documents go through V8's own JSON.stringify, handed a copy of the value whose objects have their
 * keys inserted in code-unit order (the build writes 80 MB of such JSON; the copy and a plain
 * JSON.stringify take about 40% less time than a replacer function called on every value, and 2 to
 * 3 times less than `serialise`). At a depth, the copy is written inside that many arrays, so that
 * JSON.stringify indents it itself, and cut out of them: a second pass to indent it cost more than
 * the stringify (parents.json's elements are 67 MB on the corpora). An object with a key of digits
 * cannot be handed over that way (JavaScript lists such keys in numeric order, whatever the order
 * they were set in), nor one with a toJSON other than a Date's (serialise ignores it), nor a key
 * "__proto__" (which would set the copy's prototype), so a document holding one is written by
 * `serialise`.
 */
function stableText(value: unknown, indent: number, depth = 0): string {
  const pad = ' '.repeat(indent).repeat(depth);
  // JSON.stringify indents by at most 10 spaces, and rounds a fractional indent down, which the cut assumes it does not.
  if (indent > 10 || (depth > 0 && !Number.isInteger(indent))) return indentedBy(serialise(value, indent, ''), pad);
  let copy: unknown;
  try {
    copy = sortedCopy(value);
  } catch (err) {
    if (err !== NOT_STABLE) throw err;
    return indentedBy(serialise(value, indent, ''), pad);
  }
  if (depth === 0) return JSON.stringify(copy, null, indent) ?? 'null';
  let wrapped = copy;
  for (let d = 0; d < depth; d++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, indent);
  // `[\n` and one more indent per level before the value, `\n`, the indent and `]` per level after it.
  let head = 0;
  for (let d = 1; d <= depth; d++) head += 2 + indent * (d - 1);
  head += indent * depth;
  let tail = 0;
  for (let d = 0; d < depth; d++) tail += 2 + indent * d;
  return text.slice(head, text.length - tail);
}

/** Thrown by sortedCopy when it cannot give JSON.stringify what serialise would write. */
const NOT_STABLE = Symbol('not stable');

const DIGITS = /^[0-9]+$/;

/**
 * `value` as JSON.stringify should see it to write serialise's bytes: objects copied with their
 * keys in code-unit order, a bigint as its digits, a function or symbol as null (serialise writes
 * null for them in objects and arrays alike; JSON.stringify would drop the key).
 */
function sortedCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'function':
    case 'symbol':
      return null;
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  // A Date as serialise writes it (its own toJSON, if it has one, is not asked).
  if (value instanceof Date) return dateText(value);
  // JSON.stringify would apply a toJSON (a Buffer's, a class's): serialise does not.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') throw NOT_STABLE;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = sortedCopy(value[i]);
    return out;
  }
  const keys = Object.keys(value).sort(compareCodeUnits);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (k === '__proto__' || DIGITS.test(k)) throw NOT_STABLE;
    out[k] = sortedCopy((value as Record<string, unknown>)[k]);
  }
  return out;
}

/**
 * The same bytes as stableStringify(doc, indent), as pieces: the elements of the array doc[key]
 * each on their own, the rest of the document around them. A document whose text would pass V8's
 * longest string (about 512 MiB; a library with a pathological skill gets there) is then never
 * one string, and the pieces need not all exist at once: `pieces()` serialises the elements one
 * at a time as it is iterated (each mapped by `mapItem` just before), and may be iterated again.
 * `onItem` sees each element's own text (to check it) as it goes by.
 */
export function stableStringifyStream(
  doc: Readonly<Record<string, unknown>>,
  key: string,
  indent = 2,
  mapItem: (item: unknown) => unknown = (x) => x,
): { frame: string; pieces(onItem?: (text: string, index: number) => void, textOf?: ItemText): Generator<string> } {
  const list = doc[key];
  if (!Array.isArray(list)) throw new TypeError(`stableStringifyStream: ${key} is not an array`);
  // With indentation, only a top-level key starts a line at one indent: the array is found unambiguously.
  if (indent < 1) throw new RangeError('stableStringifyStream needs an indented document');
  const frame = stableStringify({ ...doc, [key]: [] }, indent);
  const inner = ' '.repeat(indent);
  const itemPad = inner + inner;
  const nl = '\n';
  const empty = `${JSON.stringify(key)}: []`;
  const at = frame.indexOf(`${nl}${inner}${empty}`);
  if (list.length > 0 && at < 0) throw new Error(`stableStringifyStream: ${key} not found at the top of the document`);
  const head = frame.slice(0, at + nl.length + inner.length + empty.length - 1);
  const tail = frame.slice(at + nl.length + inner.length + empty.length - 1);
  return {
    frame,
    *pieces(onItem, textOf) {
      if (list.length === 0) {
        yield frame;
        return;
      }
      yield head + nl;
      for (let i = 0; i < list.length; i++) {
        const produce = () => {
          const text = stableText(mapItem(list[i]), indent, 2);
          onItem?.(text, i);
          return text;
        };
        const item = textOf ? textOf(list[i], produce) : produce();
        yield itemPad + item + (i + 1 < list.length ? ',' + nl : nl);
      }
      yield inner + tail;
    },
  };
}

/**
 * An element's text as stableStringifyStream's pieces hold it (indented, without the separator):
 * `produce()` makes it (and shows it to `onItem`); a memo may give back the text an earlier
 * `produce()` made for the same element instead.
 */
export type ItemText = (item: unknown, produce: () => string) => string;

/** stableStringify by the reference serialiser alone (tests compare the two). */
export function stableStringifyReference(value: unknown, indent = 2): string {
  return serialise(value, indent, '') + '\n';
}

/** `text` as it reads nested under `pad`: every line but the first indented by it. */
function indentedBy(text: string, pad: string): string {
  return pad === '' ? text : text.replace(/\n/g, `\n${pad}`);
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
    // A loop, not map: a hole is written null, as JSON.stringify writes it.
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) items.push(inner + serialise(value[i], indent, inner));
    return '[' + nl + items.join(',' + nl) + nl + pad + ']';
  }
  if (value instanceof Date) return JSON.stringify(dateText(value));
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort(compareCodeUnits)
    .map((k) => inner + JSON.stringify(k) + colon + serialise((value as Record<string, unknown>)[k], indent, inner));
  if (entries.length === 0) return '{}';
  return '{' + nl + entries.join(',' + nl) + nl + pad + '}';
}

/** A Date as JSON holds it: its ISO text, or null for an invalid one (as Date.prototype.toJSON gives). */
function dateText(d: Date): string | null {
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Locale-independent ordering (plain UTF-16 code unit comparison), used for every sort of names. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
