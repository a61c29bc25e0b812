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

/**
 * What a word is: the matches of this expression, lower-cased. wordAt scans for the same matches
 * without it (tokenising is a large part of a build: every body and unit of the library is read
 * this way); test/text/tokens.test.ts holds the two to the same words.
 */
export const WORD = /[A-Za-z][a-z]+|[A-Z]+(?![a-z])|[a-z]+|[0-9]+/g;

const isLower = (c: number) => c >= 97 && c <= 122;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * The end of the match of WORD at `i`, or -1 if none starts there. WORD's alternatives in its
 * order: a letter and a lower-case run; a capital run not followed by a lower-case letter (a run
 * followed by one gives back its last capital, which starts the next word); one lower-case letter;
 * a digit run.
 */
function wordEnd(text: string, i: number): number {
  const n = text.length;
  const c = text.charCodeAt(i);
  if (isLower(c) || isUpper(c)) {
    let j = i + 1;
    while (j < n && isLower(text.charCodeAt(j))) j++;
    if (j - i >= 2) return j;
    if (isLower(c)) return i + 1;
    let k = i + 1;
    while (k < n && isUpper(text.charCodeAt(k))) k++;
    // k - 1 > i here: a single capital followed by a lower-case letter matched the first alternative.
    return k < n && isLower(text.charCodeAt(k)) ? k - 1 : k;
  }
  if (isDigit(c)) {
    let j = i + 1;
    while (j < n && isDigit(text.charCodeAt(j))) j++;
    return j;
  }
  return -1;
}

/** Raw lower-case word pieces, camelCase and snake_case split, digits kept as their own tokens. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const end = wordEnd(text, i);
    if (end < 0) i++;
    else {
      out.push(text.slice(i, end).toLowerCase());
      i = end;
    }
  }
  return out;
}

/** The words of `text` as `words` gives them, one at a time: a caller that stops early reads no further. */
export function* eachWord(text: string): Generator<string> {
  for (let i = 0; i < text.length; ) {
    const end = wordEnd(text, i);
    if (end < 0) i++;
    else {
      yield text.slice(i, end).toLowerCase();
      i = end;
    }
  }
}

/** Whether a word from `words` is a content word: not a stop word, not one letter, not a number. */
export function isContentWord(w: string): boolean {
  return w.length >= 2 && !STOP_WORDS.has(w) && !/^[0-9]+$/.test(w);
}

/**
 * A name that mixes letters and digits is one word as well as its pieces: `n8n`, `k8s`, `i18n`,
 * `s3`, `3d` have no piece of two letters, so they would be lost, and `ec2`, `web3`, `oauth2` would
 * match anything about `ec`, `web` or `oauth`. So is a name written in humps (`PowerPoint`,
 * `YouTube`, `OneDrive`): its pieces alone would never meet the same name typed in lower case
 * (`powerpoint`), and `YouTube` would be only `tube`. A name starting in lower case (`macOS`,
 * `iPhone`) is not one: that is how identifiers are written (`readFile`). A run of letters and
 * digits (no other character) made of at most this many word pieces and at most MAX_MIXED_CHARS
 * long counts; longer or more broken runs are hashes, ids and long identifiers (`e29b41d4a716`,
 * `getElementsByTagName`), not names.
 */
const MAX_MIXED_PIECES = 3;
const MAX_MIXED_CHARS = 16;

/**
 * The content words of `text` in order, lower-cased and not stemmed: the words of WORD that are not
 * stop words, one letter or a number, and each alphanumeric run of several pieces (letters and
 * digits, or humps: see MAX_MIXED_PIECES) right after its pieces. What the graph index holds and a
 * query is matched with.
 */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  scanContentWords(foldLatin(text), true, (w) => out.push(w));
  return out;
}

/**
 * Content tokens: the content words without mixed runs, stemmed. What propose's unit vectors and
 * the verifier's checks read (a skill's `file1`, `step2` and `v3` would split clusters of one
 * procedure).
 */
export function contentTokens(text: string): string[] {
  const out: string[] = [];
  scanContentWords(text, false, (w) => out.push(stem(w)));
  return out;
}

/** The terms of the graph index and of a query: the content words (mixed runs too), as indexTerm gives them. */
export function indexTokens(text: string): string[] {
  const out: string[] = [];
  scanContentWords(foldLatin(text), true, (w) => out.push(indexTerm(w)));
  return out;
}

/** The letters of LATIN_LETTERS (below), found in a text. */
const LATIN_LETTER = /[ıøØßẞæÆœŒłŁđĐþÞðÐ]/g;

/**
 * Latin letters with their diacritics taken off (`résumé` → `resume`, decomposed or not), letters
 * NFKD keeps spelt in ASCII (`Straße` → `Strasse`, `kırmızı` → `kirmizi`), and compatibility forms
 * as plain ones (`ＰＤＦ` → `PDF`, `ﬁle` → `file`): words are read as runs of ASCII letters, which
 * would split `résumé` into `r` and `sum`. Any text with a character outside ASCII is normalised
 * whole (NFKD of ASCII is itself), so a word reads the same whatever else its text holds. The graph
 * index and a query read text through it alike; other scripts stay what they are (not indexed).
 */
export function foldLatin(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').replace(LATIN_LETTER, (c) => LATIN_LETTERS[c] ?? c);
}

/**
 * Words in a script the index does not read (Han, Devanagari, Cyrillic, Arabic, …), as the text
 * writes them: runs of letters and marks that foldLatin does not make ASCII. What a query says it
 * did not read.
 */
export function unreadWords(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{M}]*[^\x00-\x7f][\p{L}\p{M}]*/gu)) {
    const word = m[0];
    if (!/\p{L}/u.test(word)) continue;
    // Latin words that fold to ASCII are read; a run mixing scripts (`PDF转换`) names its unread part.
    const rest = word.match(/(?:[^\x00-\x7f][\p{M}]*)+/gu)?.filter((part) => /[^\x00-\x7f]/.test(foldLatin(part)) && /\p{L}/u.test(part)) ?? [];
    for (const part of rest) out.add(part);
  }
  return [...out];
}

/**
 * A content word's term in the graph index: its stem, or a run of letters and digits as it is.
 * Porter2 is for English words, and it uses the digit 3 as a marker of its own: it would turn
 * `mp3` into `mpi` and `python3` into `pythoni`, matching MPI and nothing of Python.
 */
export function indexTerm(word: string): string {
  return /[0-9]/.test(word) ? word : stem(word);
}

function scanContentWords(text: string, mixed: boolean, emit: (word: string) => void): void {
  // The alphanumeric run the scan is in: where it started, its pieces, and whether it has a digit and a letter.
  let runStart = -1;
  let pieces = 0;
  let digit = false;
  let letter = false;
  /** Pieces of the run that are content words (two letters or more, not a stop word), and of two letters or more. */
  let contentPieces = 0;
  let twoLetterPieces = 0;
  const endRun = (at: number) => {
    if (mixed && letter && pieces > 1 && pieces <= MAX_MIXED_PIECES && at - runStart <= MAX_MIXED_CHARS) {
      const run = text.slice(runStart, at).toLowerCase();
      // A name in humps: a capital first, two pieces of two letters or more, one of them not a stop
      // word (`ItIs` is not a name, `SaaS` has one piece and would count it twice), and not a stop
      // word itself once stemmed (`ANDs`).
      if (digit || (isUpper(text.charCodeAt(runStart)) && contentPieces >= 1 && twoLetterPieces >= 2 && !STOP_WORDS.has(stem(run)))) emit(run);
    }
    runStart = -1;
  };
  for (let i = 0; i < text.length; ) {
    const end = wordEnd(text, i);
    if (end < 0) {
      if (runStart >= 0) endRun(i);
      i++;
      continue;
    }
    if (runStart < 0) {
      runStart = i;
      pieces = 0;
      digit = false;
      letter = false;
      contentPieces = 0;
      twoLetterPieces = 0;
    }
    pieces++;
    // A word of WORD is all digits or has no digit: its first character tells which.
    if (isDigit(text.charCodeAt(i))) digit = true;
    else {
      letter = true;
      if (end - i >= 2) {
        twoLetterPieces++;
        const w = text.slice(i, end).toLowerCase();
        if (!STOP_WORDS.has(w)) {
          contentPieces++;
          emit(w);
        }
      }
    }
    i = end;
  }
  if (runStart >= 0) endRun(text.length);
}

export function tokenSet(text: string): Set<string> {
  return new Set(contentTokens(text));
}

/** Stop words an id keeps: without them "Do not use this skill when" would be named `use-skill`. */
const NEGATIONS: ReadonlySet<string> = new Set(['no', 'nor', 'not', 'without', 'against']);

/** Latin letters NFKD does not take apart: what an id spells them with. */
const LATIN_LETTERS: Readonly<Record<string, string>> = { ı: 'i', ø: 'o', Ø: 'O', ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D' };

/**
 * The words of an id, lower-cased: runs of ASCII letters and digits, after accents are taken off
 * ("Önce başarısız" reads `once basarisiz`, not `nce ba ar`), with letters and digits together
 * (`ec2`, `h5ad`). An identifier that starts in lower case is split at its humps (`createUser`:
 * `create user`), and so is every run with `humps` (code: `WorktreeFromBranch`); without it a name
 * written together in prose stays one word (`GitHub`, `TypeScript`, `OpenAI`: `github`, not
 * `git-hub`). A run of capitals is never split from the word after it (`FFmpeg`: `ffmpeg`).
 */
export function idWords(text: string, humps = false): string[] {
  const plain = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[ıøØßæÆœŒłŁđĐþÞðÐ]/g, (c) => LATIN_LETTERS[c]!);
  const out: string[] = [];
  for (const run of plain.match(/[A-Za-z0-9]+/g) ?? []) {
    if ((humps || /^[a-z]/.test(run)) && /[A-Z]/.test(run)) for (const w of run.split(/(?<=[a-z])(?=[A-Z])/)) out.push(w.toLowerCase());
    else out.push(run.toLowerCase());
  }
  return out;
}

/** kebab-case identifier from free text, at most `max` words, stop words left out but negations kept. */
export function kebab(text: string, max = 5): string {
  const ws = idWords(text).filter((w) => !STOP_WORDS.has(w) || NEGATIONS.has(w));
  return ws.slice(0, max).join('-') || 'contract';
}
