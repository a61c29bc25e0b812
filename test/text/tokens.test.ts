/**
 * Word tokens: the scanner gives exactly the words of the WORD expression, and a run of letters
 * far longer than any word is not handed to the (quadratic) stemmer.
 */
import { describe, expect, it } from 'vitest';
import { contentTokens, eachWord, isContentWord, MAX_STEMMED_WORD, stem, WORD, words } from '../../src/text/tokens.js';

/** The words as the expression finds them: what the scanner must give. */
const byExpression = (text: string) => [...text.matchAll(WORD)].map((m) => m[0].toLowerCase());

/** A deterministic generator (xorshift), so a failure names a reproducible text. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const ALPHABET = ['a', 'b', 'z', 'A', 'B', 'Z', '0', '9', '_', '-', ' ', '\n', '.', "'", 'é', 'É', 'ß', 'ı', 'K', '😀', '\u0301', '[', '`'];

describe('words', () => {
  const cases = [
    'HTTPServer parseJSON XMLHttpRequest iOS aB AbC ABc a b I',
    'snake_case kebab-case dotted.name path/to/file.py v2.10.3 x86_64 0x1F',
    'Émile naïve café STRASSE straße İstanbul ſ K',
    '',
    'A',
    'aa',
    'AAa',
    '123abc456DEF',
  ];
  for (const text of cases) {
    it(`gives the expression's words: ${JSON.stringify(text).slice(0, 40)}`, () => {
      expect(words(text)).toEqual(byExpression(text));
      expect([...eachWord(text)]).toEqual(byExpression(text));
    });
  }

  it("gives the expression's words on 20,000 generated texts", () => {
    const next = random(20261127);
    for (let k = 0; k < 20_000; k++) {
      const length = Math.floor(next() * 24);
      let text = '';
      for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
      expect(words(text), JSON.stringify(text)).toEqual(byExpression(text));
    }
  });

  it('content tokens are the content words, stemmed', () => {
    const next = random(7);
    for (let k = 0; k < 5_000; k++) {
      const length = Math.floor(next() * 40);
      let text = '';
      for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
      text += ' the running Files of 2026 and AND tests';
      expect(contentTokens(text), JSON.stringify(text)).toEqual(byExpression(text).filter(isContentWord).map(stem));
    }
  });
});

describe('stem', () => {
  it('stems words and keeps runs over MAX_STEMMED_WORD letters as they are', () => {
    expect(stem('running')).toBe('run');
    // Stemmed, the run would lose its -ing; a 100,000-letter run took the stemmer minutes.
    const run = `${'a'.repeat(100_000)}ing`;
    expect(contentTokens(`processing ${run} files`)).toEqual(['process', run, 'file']);
    expect(stem('s'.repeat(MAX_STEMMED_WORD + 1))).toBe('s'.repeat(MAX_STEMMED_WORD + 1));
  });
});
