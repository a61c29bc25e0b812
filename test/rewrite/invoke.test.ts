import { describe, expect, it } from 'vitest';
import { formatInvoke, parseInvokes } from '../../src/rewrite/invoke.js';
import { codeSpan } from '../../src/text/code-span.js';

describe('invoke notation', () => {
  it('formats in input order and parses back to the same bindings', () => {
    const b = { target: 'desk 1', object: 'laptop 1' };
    const s = formatInvoke('move-object', b, ['object', 'target']);
    expect(s).toBe('invoke(move-object, {object="laptop 1", target="desk 1"})');
    expect(parseInvokes(`before ${s} after`)).toEqual([{ contract: 'move-object', bindings: b, start: 7, end: 7 + s.length }]);
  });

  it('survives quotes, backslashes, braces, newlines and non-ASCII in values', () => {
    const b = { v: 'say "hi" \\ {x}', w: 'ünïcödé\nline' };
    const [p] = parseInvokes(formatInvoke('c', b));
    expect(p!.bindings).toEqual(b);
  });

  it('skips malformed notation and prose that merely mentions invoke(', () => {
    expect(parseInvokes('call invoke(x, {a=1}) or invoke(Foo, {a="b"}) or invoke(y, {a="b"')).toEqual([]);
    expect(parseInvokes('invoke(z, {})')).toEqual([{ contract: 'z', bindings: {}, start: 0, end: 13 }]);
  });

  it('wraps in a code span longer than any backtick run inside', () => {
    expect(codeSpan('invoke(c, {a="x"})')).toBe('`invoke(c, {a="x"})`');
    expect(codeSpan('invoke(c, {a="`x`"})')).toBe('``invoke(c, {a="`x`"})``');
  });
});
