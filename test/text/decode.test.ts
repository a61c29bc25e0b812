import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstInvalidUtf8, looksLikeText } from '../../src/text/decode.js';

const enc = (s: string) => new TextEncoder().encode(s);

describe('decodeUtf8', () => {
  it('decodes valid UTF-8 exactly like TextDecoder', () => {
    const bytes = enc('héllo — ✓ 𝄞\n');
    const d = decodeUtf8(bytes);
    expect(d.encoding).toBe('utf-8');
    expect(d.text).toBe(new TextDecoder().decode(bytes));
  });

  it('drops a leading BOM from the text but says it was there', () => {
    const d = decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, ...enc('---\n')]));
    expect(d.encoding).toBe('utf-8-bom');
    expect(d.text).toBe('---\n');
  });

  it('locates the first invalid byte and decodes the rest with U+FFFD', () => {
    const bytes = new Uint8Array([...enc('ab\nc'), 0xff, ...enc('d')]);
    const d = decodeUtf8(bytes);
    expect(d.encoding).toBe('utf-8-invalid');
    expect(d.firstInvalidByte).toBe(4);
    expect(d.text).toBe('ab\nc\uFFFDd');
  });
});

describe('firstInvalidUtf8', () => {
  it.each([
    ['overlong 2-byte', [0xc0, 0xaf], 0],
    ['surrogate', [0x41, 0xed, 0xa0, 0x80], 1],
    ['truncated 3-byte', [0x41, 0x42, 0xe2, 0x82], 2],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['stray continuation', [0x41, 0x80], 1],
  ])('%s', (_name, bytes, at) => {
    expect(firstInvalidUtf8(new Uint8Array(bytes))).toBe(at);
  });

  it('returns -1 for valid input', () => {
    expect(firstInvalidUtf8(enc('ok ✓ 𝄞'))).toBe(-1);
  });
});

describe('looksLikeText', () => {
  it('rejects NUL bytes and invalid UTF-8, accepts text', () => {
    expect(looksLikeText(enc('print("hi")\n'))).toBe(true);
    expect(looksLikeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0]))).toBe(false);
    expect(looksLikeText(new Uint8Array([0x41, 0xff]))).toBe(false);
  });
});
