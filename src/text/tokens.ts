/**
 * Word tokens for similarity and evidence checks: lower-cased alphanumeric runs (identifiers split
 * at _ - . / and camelCase), English stop words dropped, Porter2 stems. Deterministic and
 * dependency-light; used by propose (TF-IDF), extract (trigger) and verify (coverage, binding).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const porter2 = require('wink-porter2-stemmer') as (word: string) => string;

export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during each either etc few for from further had has have having he her here hers him his how i if in into is it its itself just may me might more most must my no nor not now of off on once only or other our ours out over own same shall she should so some such than that the their theirs them then there these they this those through to too under until up upon us very via was we were what when where which while who whom why will with within without would you your yours e.g i.e'.split(' '),
);

const stemCache = new Map<string, string>();

/**
 * Words longer than this are kept as they are instead of stemmed. The Porter2 stemmer takes time
 * quadratic in a word's length (measured: 4,000 letters 0.27 s, 16,000 letters 2.4 s, 32,000
 * letters 8.8 s), so one long run of letters in a skill or a query would stall the build or the
 * retriever; such a run is not an English word (protein sequences, encoded data), and stemming
 * could not make it match anything else.
 */
export const MAX_STEMMED_WORD = 64;

export function stem(word: string): string {
  if (word.length > MAX_STEMMED_WORD) return word;
  let s = stemCache.get(word);
  if (s === undefined) {
    s = porter2(word);
    if (stemCache.size < 200_000) stemCache.set(word, s);
  }
  return s;
}

const WORD = /[A-Za-z][a-z]+|[A-Z]+(?![a-z])|[a-z]+|[0-9]+/g;

/** Raw lower-case word pieces, camelCase and snake_case split, digits kept as their own tokens. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) out.push(m[0].toLowerCase());
  return out;
}

/** The words of `text` as `words` gives them, one at a time: a caller that stops early reads no further. */
export function* eachWord(text: string): Generator<string> {
  for (const m of text.matchAll(WORD)) yield m[0].toLowerCase();
}

/** Whether a word from `words` is a content word: not a stop word, not one letter, not a number. */
export function isContentWord(w: string): boolean {
  return w.length >= 2 && !STOP_WORDS.has(w) && !/^[0-9]+$/.test(w);
}

/** Content tokens: words minus stop words and one-letter words, stemmed. */
export function contentTokens(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (isContentWord(w)) out.push(stem(w));
  return out;
}

export function tokenSet(text: string): Set<string> {
  return new Set(contentTokens(text));
}

/** kebab-case identifier from free text, at most `max` words. */
export function kebab(text: string, max = 5): string {
  const ws = words(text).filter((w) => !STOP_WORDS.has(w));
  return ws.slice(0, max).join('-') || 'contract';
}
