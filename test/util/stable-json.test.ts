/**
 * Stable JSON: the fast path (JSON.stringify with keys handed over in code-unit order) writes the
 * bytes of the reference serialiser for every kind of value an artifact can hold, and falls back
 * to it where JavaScript would reorder keys or a toJSON would change the value.
 */
import { describe, expect, it } from 'vitest';
import { stableStringify, stableStringifyReference, stableStringifyStream } from '../../src/util/stable-json.js';

const cases: [string, unknown][] = [
  ['nested objects with unsorted keys', { b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } }],
  ['code-unit order, not locale order', { é: 1, a: 2, Z: 3, _: 4, 'a-b': 5, aB: 6 }],
  ['keys of digits (JavaScript orders them numerically)', { 10: 'ten', 2: 'two', a: { 1: 1, 0: 0 } }],
  ['a key "__proto__" read from JSON', JSON.parse('{"__proto__": {"x": 1}, "b": 2}') as unknown],
  ['undefined in objects and arrays', { a: undefined, b: [1, undefined, 3] }],
  ['numbers JSON cannot hold', { nan: NaN, inf: Infinity, neg: -Infinity, zero: -0, big: 1e300, small: 5e-324 }],
  ['a Date', { when: new Date(Date.UTC(2026, 10, 25)) }],
  ['a bigint', { n: 12345678901234567890n }],
  ['functions and symbols', { f: () => 1, s: Symbol('s'), list: [() => 1, Symbol('t')] }],
  ['a Buffer (its toJSON is not serialise\'s)', { data: Buffer.from('hi') }],
  ['a Uint8Array', { bytes: new Uint8Array([1, 2, 3]) }],
  ['empty containers', { a: [], o: {}, n: null, s: '', t: true, f: false }],
  ['strings with escapes and newlines', { s: 'line\nnext "quoted" \\ \u0000 \u2028 😀' }],
  ['top-level scalars', 'text'],
  ['top-level undefined', undefined],
  ['a top-level array', [{ b: 1, a: 2 }, [], 'x']],
  // Found by a review: cases where the two serialisers wrote different bytes.
  ['array holes', { a: [, 1, , 2], b: Object.assign([NaN], { length: 3 }) }],
  ['an invalid Date', { when: new Date(NaN), list: [NaN, new Date(NaN)] }],
  ['a Date with its own toJSON', { when: Object.assign(new Date(0), { toJSON: () => 'x' }), n: NaN }],
  ['a key "__proto__" holding a hole and an invalid Date', Object.defineProperty(JSON.parse('{"b": 2}') as object, '__proto__', { value: [, new Date(NaN)], enumerable: true })],
  ['an object whose toJSON returns itself, beside a hole', [new (class { toJSON() { return this; } })(), , 3]],
];

describe('stableStringify', () => {
  for (const [what, value] of cases) {
    it(`writes the reference bytes: ${what}`, () => {
      for (const indent of [0, 2, 4, 12]) expect(stableStringify(value, indent)).toBe(stableStringifyReference(value, indent));
    });
  }

  it('sorts keys by code unit and keeps digit keys in that order too', () => {
    expect(stableStringify({ 10: 1, 2: 2, b: 3, a: 4 }, 0)).toBe('{"10":1,"2":2,"a":4,"b":3}\n');
  });

  it('streams the same bytes, element by element', () => {
    const doc = { z: 1, items: cases.map(([what, value]) => ({ what, value })), a: 'end' };
    const stream = stableStringifyStream(doc, 'items', 2);
    expect([...stream.pieces()].join('')).toBe(stableStringifyReference(doc, 2));
  });

  it('streams the reference bytes when the elements themselves are every kind of value, at every indent', () => {
    // Elements are written indented two levels down by JSON.stringify itself (inside two arrays,
    // then cut out), or by the reference serialiser for values it must write: both checked here.
    const doc = { items: cases.map(([, value]) => value), b: [1], a: { items: [] } };
    for (const indent of [1, 1.5, 2, 2.5, 3, 4, 10, 10.5, 11, 12]) {
      const stream = stableStringifyStream(doc, 'items', indent);
      expect([...stream.pieces()].join('')).toBe(stableStringifyReference(doc, indent));
    }
  });
});
