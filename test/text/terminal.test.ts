import { describe, expect, it } from 'vitest';
import { escapeBlock, escapeInline } from '../../src/text/terminal.js';

describe('escapeInline', () => {
  it('shows every control character, DEL, C1 and bidi override as a visible escape', () => {
    expect(escapeInline('a\x1b[2Jb\x07c\nd\re\tf\x7fg\x9bh\u202ei\u2066j')).toBe('a\\x1b[2Jb\\x07c\\nd\\re\\tf\\x7fg\\x9bh\\u202ei\\u2066j');
  });
  it('leaves ordinary text, including non-ASCII letters and emoji, alone', () => {
    expect(escapeInline('naïve 数据 → ✓ 🚀 a/b c:1')).toBe('naïve 数据 → ✓ 🚀 a/b c:1');
  });
});

describe('escapeBlock', () => {
  it('keeps line feeds, CRLF and tabs, turns a lone CR into a line feed, escapes the rest', () => {
    expect(escapeBlock('one\r\ntwo\rthree\n\tfour\x1b]0;title\x07')).toBe('one\r\ntwo\nthree\n\tfour\\x1b]0;title\\x07');
  });
});
