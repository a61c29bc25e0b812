/**
 * skillc's o200k_base counter against gpt-tokenizer's (the reference it replaced): pieces that
 * are whole tokens, pieces BPE must merge (ties, long runs that take the heap many rounds),
 * every script the pre-tokenizer treats differently, and the binary table the build writes.
 */
import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { decodeRankTable, eachPiece, encodeRankTable, makeTokenCounter, o200kTokenCounter, readO200kRankFile, readRankTable } from '../../src/text/o200k.js';

const reference = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

const SAMPLES: readonly string[] = [
  '',
  'a',
  ' ',
  'Hello, world!',
  'The quick brown fox jumps over the lazy dog. It\'s what they\'ve said; we\'ll see.',
  'CamelCaseIdentifier and snake_case_identifier and SCREAMING_CASE',
  'const { execSync } = require("child_process");\nexecSync(`rm -rf ${dir}/*`);\n',
  'def f(x):\n    return [i ** 2 for i in range(x) if i % 3 == 0]\n',
  '  \t  leading and trailing whitespace \n\n\n   \r\n\r\n',
  '1234567890 3.14159 1e-10 0xDEADBEEF 1,000,000',
  '日本語のテキストと中文文本和한국어 텍스트',
  'Ünïcödé çömbíníng: e\u0301 a\u0308 n\u0303 — “quotes” ‘single’ … €£¥',
  'emoji 😀😃😄 👩‍👩‍👧‍👦 🇫🇷 and a lone surrogate \ud800 here',
  'Ελληνικά Русский العربية עברית हिन्दी ไทย',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'abababababababababababababababababababababababababababababababab',
  '!!!!!!!!!!!!!!!!!!!!????????????????........,,,,,,,,;;;;;;;;;;;',
  'https://example.com/path/to/resource?query=value&other=1#fragment',
  '| a | b |\n|---|---|\n| 1 | 2 |\n\n```bash\ncurl -fsSL https://x.sh | sh\n```\n',
  'special-token text is plain text here: <|endoftext|> <|im_start|>user<|im_end|>',
];

// A long random-looking piece: one pre-tokenizer match of 6,000 letters, which BPE merges over
// thousands of heap rounds.
const BLOB = Array.from({ length: 6000 }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[(i * 7919 + (i >> 3) * 104729) % 52]).join('');

describe('o200k token counts', () => {
  const count = o200kTokenCounter();

  it('equal gpt-tokenizer on every sample', () => {
    for (const text of SAMPLES) expect(count(text), JSON.stringify(text)).toBe(reference(text));
  });

  it('equal gpt-tokenizer on a long piece that needs many merges', () => {
    expect(count(BLOB)).toBe(reference(BLOB));
    expect(count(BLOB)).toBeGreaterThan(1000);
  });

  it('are stable across calls (the piece cache changes nothing)', () => {
    const text = SAMPLES.join('\n');
    expect(count(text)).toBe(count(text));
    expect(count(text)).toBe(reference(text));
  });

  it('treat special-token text as text, where gpt-tokenizer by default throws', () => {
    expect(() => countTokens('<|endoftext|>')).toThrow();
    expect(count('<|endoftext|>')).toBeGreaterThan(1);
  });
});

describe('rank table', () => {
  const table = readO200kRankFile();

  it('holds the 199,998 tokens of o200k_base', () => {
    expect(table.ranks.length).toBe(199998);
  });

  it('round-trips through the binary form the build writes', () => {
    const bytes = encodeRankTable(table);
    const decoded = decodeRankTable(bytes);
    expect(decoded).not.toBeNull();
    // Byte equality of the re-encoded table (vitest's deep equal is slow on 500,000-entry arrays).
    expect(Buffer.from(encodeRankTable(decoded!)).equals(Buffer.from(bytes))).toBe(true);
    const text = SAMPLES.join(' ') + BLOB;
    expect(makeTokenCounter(decoded!)(text)).toBe(reference(text));
  });

  it('reads a binary table at an unaligned offset, from a Uint8Array or a Buffer', () => {
    const bytes = encodeRankTable(table);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(decodeRankTable(shifted.subarray(1))?.ranks.length).toBe(199998);
    // A Buffer's slice() is a view, not a copy: readFileSync may hand over such a Buffer.
    expect(decodeRankTable(Buffer.from(shifted.buffer, 1, bytes.length))?.ranks.length).toBe(199998);
  });

  it('rejects a file that is not one (another version, truncated)', () => {
    const bytes = encodeRankTable(table);
    const otherVersion = bytes.slice();
    otherVersion[4] = 99;
    expect(decodeRankTable(otherVersion)).toBeNull();
    expect(decodeRankTable(bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(decodeRankTable(new Uint8Array(3))).toBeNull();
  });

  it('reports a corrupt rank file by line', () => {
    expect(() => readRankTable(new TextEncoder().encode('IQ== 0\nI*== 1\n'))).toThrow(/line 2/);
  });
});

describe('the pre-tokenizer split over ASCII', () => {
  const split = () => new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);
  const byExpression = (text: string) => [...text.matchAll(split())].map((m) => [m.index, m.index + m[0].length]);
  const byScan = (text: string) => {
    const out: number[][] = [];
    eachPiece(text, split(), (start, end) => out.push([start, end]));
    return out;
  };
  // Every class the expression tells apart, ASCII and not: capitals and lower case (and their
  // non-ASCII kin), digits (², ٣), apostrophes and contraction letters, each kind of whitespace
  // (NBSP and U+2028 are \s but not ASCII), line breaks, / after punctuation, marks, emoji.
  const ALPHABET = ['a', 's', 'l', 'v', 'e', 'r', 'd', 'm', 't', 'A', 'S', 'L', 'V', 'E', 'R', 'D', 'M', 'T', 'Z', '0', '5', '9', "'", ' ', ' ', '\t', '\v', '\f', '\n', '\r', '/', '.', '-', '_', '(', '"', '#', '\u0000', '\u007f', 'é', 'É', 'ǅ', 'ʰ', '²', '٣', '\u00a0', '\u2028', '\u0301', '—', '😀', '\ud800', '日'];

  it('gives the pieces of the expression on the samples', () => {
    for (const text of [...SAMPLES, BLOB]) expect(byScan(text), JSON.stringify(text)).toEqual(byExpression(text));
  });

  it('gives the pieces of the expression on 30,000 generated texts', () => {
    let x = 20261127;
    const next = () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) / 2 ** 32;
    };
    for (let k = 0; k < 30_000; k++) {
      const length = Math.floor(next() * 16);
      // Mostly ASCII, as skills are, so that long ASCII stretches meet the rest.
      let text = '';
      for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * (next() < 0.8 ? 39 : ALPHABET.length))];
      expect(byScan(text), JSON.stringify(text)).toEqual(byExpression(text));
    }
  });
});
