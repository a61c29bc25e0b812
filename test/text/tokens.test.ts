/**
 * Word tokens: the scanner gives exactly the words of the WORD expression, and a run of letters
 * far longer than any word is not handed to the (quadratic) stemmer.
 */
import { describe, expect, it } from 'vitest';
import { contentTokens, contentWords, eachWord, foldLatin, idWords, indexTokens, isContentWord, kebab, MAX_STEMMED_WORD, stem, unreadWords, WORD, words } from '../../src/text/tokens.js';

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

/** `count` texts of up to `maxLength` characters of ALPHABET, from `seed`. */
function* texts(seed: number, count: number, maxLength: number): Generator<string> {
  const next = random(seed);
  for (let k = 0; k < count; k++) {
    let text = '';
    for (let i = Math.floor(next() * maxLength); i > 0; i--) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
    yield text;
  }
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
    for (const text of texts(20261127, 20_000, 24)) expect(words(text), JSON.stringify(text)).toEqual(byExpression(text));
  });

  it('content tokens are the content words, stemmed', () => {
    for (const generated of texts(7, 5_000, 40)) {
      const text = `${generated} the running Files of 2026 and AND tests`;
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

describe('kebab', () => {
  it('leaves stop words out of an id but keeps its negations', () => {
    expect(kebab('Use this skill when')).toBe('use-skill');
    expect(kebab('Do not use this skill when')).toBe('not-use-skill');
    expect(kebab('Deploy without a lock file')).toBe('deploy-without-lock-file');
    expect(kebab('the of and')).toBe('contract');
  });
});

describe('idWords (ids of contracts and passages)', () => {
  it('keeps a name written together in prose one word, and splits identifiers at their humps', () => {
    expect(idWords('FFmpeg and GitHub Actions with TypeScript, OpenAI')).toEqual(['ffmpeg', 'and', 'github', 'actions', 'with', 'typescript', 'openai']);
    expect(idWords('createUser ec2 h5ad')).toEqual(['create', 'user', 'ec2', 'h5ad']);
    expect(idWords('New-WorktreeFromBranch X-N8N-API-KEY', true)).toEqual(['new', 'worktree', 'from', 'branch', 'x', 'n8n', 'api', 'key']);
    expect(kebab('7. JavaScript Performance (LOW-MEDIUM)')).toBe('7-javascript-performance-low-medium');
  });

  it('takes accents off instead of dropping the letters', () => {
    expect(idWords('Önce başarısız bir test yaz')).toEqual(['once', 'basarisiz', 'bir', 'test', 'yaz']);
    expect(kebab('Straße Łódź ØRSTED')).toBe('strasse-lodz-orsted');
    expect(idWords('取得特定市場')).toEqual([]);
  });
});

describe('index words of Latin letters with diacritics, and the words of other scripts', () => {
  it('folds diacritics and full-width forms, for the index and a query alike', () => {
    expect(contentWords('parse a résumé, café naïve')).toEqual(['parse', 'resume', 'cafe', 'naive']);
    expect(indexTokens('Ｐｒｏｃｅｓｓ the résumé')).toEqual(indexTokens('Process the resume'));
    expect(foldLatin('plain ascii')).toBe('plain ascii');
  });

  it('names the words of scripts the index does not read', () => {
    expect(unreadWords('将PDF转换为Word文档')).toEqual(['将', '转换为', '文档']);
    expect(unreadWords('привет мир and résumé')).toEqual(['привет', 'мир']);
    expect(unreadWords('only ascii words')).toEqual([]);
  });
});
