/**
 * Exact o200k_base token counts (the GPT-4o family's encoding) that load in a few tens of
 * milliseconds.
 *
 * Why not gpt-tokenizer's countTokens, which skillc used before: loading it costs about 190 ms
 * (compiling a 2.4 MB JavaScript array of the 200,000 token strings, then filling Maps from it),
 * most of a cold `skillc lint` in a pre-commit hook. Counting needs much less: the same
 * pre-tokenizer split (gpt-tokenizer's own O200K regex, imported from it; over ASCII text the same
 * pieces are found by character classes, see asciiPieceEnd), then byte-level BPE over each piece,
 * which needs only "what is the rank of these bytes". Here the ranks are read
 * from gpt-tokenizer's shipped o200k_base.tiktoken file (base64 token, space, rank per line) into
 * typed arrays and an open-addressing hash table: no strings, no Map, one pass over the file. The
 * build stores that table as one binary file beside the bundle, which loads in a few ms.
 *
 * The merge is tiktoken's: repeatedly merge the adjacent pair whose bytes have the lowest rank,
 * the leftmost on ties, until no pair is a token; the pieces left are the tokens. A binary heap
 * keyed by (rank, start) finds that pair, so a long piece (a base64 blob in a skill) costs
 * O(n log n), not O(n²).
 *
 * Special-token text such as `<|endoftext|>` is ordinary text here (tiktoken's encode_ordinary);
 * gpt-tokenizer's countTokens throws on it, which crashed the build of a skill that quoted
 * it. test/text/o200k.test.ts and bench/o200k-parity.ts check the counts against
 * gpt-tokenizer.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

export interface RankTable {
  /** Token bytes, back to back; token i is bytes[offsets[i], offsets[i + 1]). */
  readonly bytes: Uint8Array;
  readonly offsets: Int32Array;
  readonly ranks: Int32Array;
  /** Open addressing, linear probing: token index + 1, or 0 for an empty slot. */
  readonly slots: Int32Array;
  readonly mask: number;
}

const NO_RANK = 0x7fffffff;

const BASE64_VALUE = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/** FNV-1a over bytes[start, end). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** Reads a .tiktoken rank file (`<base64> <rank>` per line). */
export function readRankTable(file: Uint8Array): RankTable {
  let lines = 0;
  for (let i = file.indexOf(0x0a); i >= 0; i = file.indexOf(0x0a, i + 1)) lines++;
  if (file.length > 0 && file[file.length - 1] !== 0x0a) lines++;
  const bytes = new Uint8Array(file.length); // base64 decodes shorter than it is
  const offsets = new Int32Array(lines + 1);
  const ranks = new Int32Array(lines);
  let size = 1;
  while (size < lines * 2) size <<= 1;
  const slots = new Int32Array(size);
  const mask = size - 1;

  // One pass: decode each token's base64 into `bytes`, then file it under its hash.
  let at = 0;
  let length = 0;
  for (let token = 0; token < lines; token++) {
    const start = length;
    let bits = 0;
    let acc = 0;
    for (let c = file[at]!; at < file.length && c !== 0x20; c = file[++at]!) {
      if (c === 0x3d) continue; // '=' padding
      const v = c < 128 ? BASE64_VALUE[c]! : -1;
      if (v < 0) throw new Error(`o200k: bad base64 on line ${token + 1} of the rank file`);
      acc = ((acc << 6) | v) & 0xffffff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes[length++] = (acc >> bits) & 0xff;
      }
    }
    at++; // the space
    let rank = 0;
    for (let c = file[at]!; at < file.length && c !== 0x0a; c = file[++at]!) rank = rank * 10 + (c - 0x30);
    at++; // the newline
    offsets[token + 1] = length;
    ranks[token] = rank;
    let slot = hashBytes(bytes, start, length) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = token + 1;
  }
  return { bytes, offsets, ranks, slots, mask };
}

/** The rank of bytes[start, end) as one token, or NO_RANK. */
function rankOf(table: RankTable, bytes: Uint8Array, start: number, end: number): number {
  const length = end - start;
  for (let slot = hashBytes(bytes, start, end) & table.mask; ; slot = (slot + 1) & table.mask) {
    const entry = table.slots[slot]!;
    if (entry === 0) return NO_RANK;
    const token = entry - 1;
    const from = table.offsets[token]!;
    if (table.offsets[token + 1]! - from !== length) continue;
    let same = true;
    for (let i = 0; i < length; i++) {
      if (table.bytes[from + i] !== bytes[start + i]) {
        same = false;
        break;
      }
    }
    if (same) return table.ranks[token]!;
  }
}

/**
 * Tokens BPE makes of bytes[0, n): merges the lowest-ranked adjacent pair (leftmost on ties)
 * until no adjacent pair is a token. Parts are a linked list over byte positions; the heap holds
 * rank * 2^32 + start, and an entry is stale once its part is gone or its rank changed.
 */
function mergeCount(table: RankTable, bytes: Uint8Array, n: number): number {
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  const rank = new Int32Array(n);
  const heap: number[] = [];
  const push = (key: number) => {
    let i = heap.push(key) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]! <= key) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = key;
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) break;
        const r = l + 1;
        const child = r < heap.length && heap[r]! < heap[l]! ? r : l;
        if (heap[child]! >= last) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  };
  /** Rank of the part at `start` merged with the one after it. */
  const pairRank = (start: number): number => {
    const second = next[start]!;
    return second >= n ? NO_RANK : rankOf(table, bytes, start, next[second]!);
  };

  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  next[n] = n;
  for (let i = 0; i < n; i++) {
    rank[i] = pairRank(i);
    if (rank[i] !== NO_RANK) push(rank[i]! * 4294967296 + i);
  }
  let parts = n;
  while (heap.length > 0) {
    const key = pop();
    const start = key % 4294967296;
    const r = (key - start) / 4294967296;
    if (rank[start] !== r) continue; // stale: merged away (NO_RANK) or re-ranked
    const removed = next[start]!;
    next[start] = next[removed]!;
    if (next[removed]! < n) prev[next[removed]!] = start;
    rank[removed] = NO_RANK;
    parts--;
    rank[start] = pairRank(start);
    if (rank[start] !== NO_RANK) push(rank[start]! * 4294967296 + start);
    const before = prev[start]!;
    if (before >= 0) {
      rank[before] = pairRank(before);
      if (rank[before] !== NO_RANK) push(rank[before]! * 4294967296 + before);
    }
  }
  return parts;
}

export type TokenCounter = (text: string) => number;

// ---------------------------------------------------------------------------------------------
// The pre-tokenizer split over ASCII text without the expression. Counting spends most of its time
// splitting (a unicode-aware expression, a match object per piece); most skill text is ASCII,
// where the expression's classes are simple: \p{Lu} is A-Z, \p{Ll} a-z, \p{N} 0-9, \p{Lt},
// \p{Lm}, \p{Lo} and \p{M} hold no ASCII character, and \s is tab, LF, VT, FF, CR and space.
// asciiPieceEnd follows the expression's alternatives in their order, with its backtracking, and
// gives up (BAIL) whenever the piece would depend on a character outside ASCII: the expression
// then finds the piece. test/text/o200k.test.ts holds the two to the same pieces.

const BAIL = -1;
const LOWER = 0;
const UPPER = 1;
const DIGIT = 2;
/** Tab, VT, FF, space: whitespace that is not a line break. */
const SPACE = 3;
/** CR, LF. */
const BREAK = 4;
/** Any other ASCII character: neither whitespace nor letter nor digit. */
const OTHER = 5;
const WIDE = 6;

const ASCII_CLASS = (() => {
  const t = new Uint8Array(128).fill(OTHER);
  for (let c = 97; c <= 122; c++) t[c] = LOWER;
  for (let c = 65; c <= 90; c++) t[c] = UPPER;
  for (let c = 48; c <= 57; c++) t[c] = DIGIT;
  for (const c of [9, 11, 12, 32]) t[c] = SPACE;
  t[10] = BREAK;
  t[13] = BREAK;
  return t;
})();

function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 128 ? ASCII_CLASS[c]! : WIDE;
}

/** After a word: a contraction 's 'd 'm 't 'll 've 're (either case), if one follows at k. */
function contractionEnd(text: string, k: number): number {
  if (text.charCodeAt(k) !== 39) return k;
  const a = text.charCodeAt(k + 1) | 32;
  if (a === 115 || a === 100 || a === 109 || a === 116) return k + 2; // s d m t
  const b = text.charCodeAt(k + 2) | 32;
  if ((a === 108 && b === 108) || (a === 118 && b === 101) || (a === 114 && b === 101)) return k + 3; // ll ve re
  return k;
}

/**
 * A word from s: capitals then lower-case letters, then a contraction. With `lowerNeeded` the
 * first alternative (capitals*, lower+), else the second (capitals+, lower*). -2: no match.
 */
function wordFrom(text: string, s: number, lowerNeeded: boolean): number {
  const n = text.length;
  let j = s;
  let c = j < n ? classAt(text, j) : -1;
  while (c === UPPER) c = ++j < n ? classAt(text, j) : -1;
  if (c === WIDE) return BAIL;
  if (!lowerNeeded && j === s) return -2;
  let k = j;
  while (c === LOWER) c = ++k < n ? classAt(text, k) : -1;
  if (c === WIDE) return BAIL;
  if (lowerNeeded && k === j) return -2;
  return contractionEnd(text, k);
}

/** The fourth alternative's run from s (punctuation, then line breaks and slashes); -2: no match. */
function punctuationFrom(text: string, s: number): number {
  const n = text.length;
  let j = s;
  let d = j < n ? classAt(text, j) : -1;
  while (d === OTHER) d = ++j < n ? classAt(text, j) : -1;
  if (d === WIDE) return BAIL;
  if (j === s) return -2;
  for (let x = text.charCodeAt(j); x === 10 || x === 13 || x === 47; x = text.charCodeAt(++j));
  return j;
}

/** The end of the expression's piece at i, or BAIL when a character outside ASCII could change it. */
function asciiPieceEnd(text: string, i: number): number {
  const n = text.length;
  const c = classAt(text, i);
  if (c === WIDE) return BAIL;
  // 1 and 2: [^\r\n\p{L}\p{N}]? then a word. The optional character is tried first; without it
  // a word starts only at a letter, and after a character it could be, no word starts at i.
  const wordStart = c === SPACE || c === OTHER ? (i + 1 < n ? i + 1 : -1) : c === LOWER || c === UPPER ? i : -1;
  if (wordStart >= 0) {
    const first = wordFrom(text, wordStart, true);
    if (first !== -2) return first;
    const second = wordFrom(text, wordStart, false);
    if (second !== -2) return second;
  }
  // 3: \p{N}{1,3}.
  if (c === DIGIT) {
    let j = i + 1;
    while (j < n && j < i + 3) {
      const d = classAt(text, j);
      if (d === WIDE) return BAIL;
      if (d !== DIGIT) break;
      j++;
    }
    return j;
  }
  // 4: " "?[^\s\p{L}\p{N}]+[\r\n/]*, with the space tried first.
  if (text.charCodeAt(i) === 32) {
    const end = punctuationFrom(text, i + 1);
    if (end !== -2) return end;
  }
  const end = punctuationFrom(text, i);
  if (end !== -2) return end;
  // 5, 6, 7: whitespace. (c is SPACE or BREAK here.)
  let k = i;
  let lastBreak = -1;
  for (let d = c; d === SPACE || d === BREAK; d = ++k < n ? classAt(text, k) : -1) if (d === BREAK) lastBreak = k;
  if (k < n && classAt(text, k) === WIDE) return BAIL;
  // \s*[\r\n]+: up to the last line break of the run.
  if (lastBreak >= 0) return lastBreak + 1;
  // \s+(?!\S): the run, or all of it but its last character when something follows.
  if (k === n) return k;
  if (k - 1 > i) return k - 1;
  // \s+
  return k;
}

/**
 * The pre-tokenizer's pieces of `text`, given to `f` as (start, end): asciiPieceEnd where it can
 * decide, the expression elsewhere. The same pieces as `text.matchAll(split)`.
 */
export function eachPiece(text: string, split: RegExp, f: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let start = i;
    let end = asciiPieceEnd(text, i);
    // (end <= i never happens; if it did, the expression decides rather than the loop stalling.)
    if (end <= i) {
      split.lastIndex = i;
      const m = split.exec(text);
      if (!m) return;
      start = m.index;
      end = start + m[0].length;
    }
    f(start, end);
    i = end;
  }
}

/** A counter over `table`, with the pre-tokenizer split and a cache of piece counts. */
export function makeTokenCounter(table: RankTable): TokenCounter {
  const encoder = new TextEncoder();
  let scratch = new Uint8Array(1024);
  const cache = new Map<string, number>();
  const countPiece = (piece: string): number => {
    const cached = cache.get(piece);
    if (cached !== undefined) return cached;
    if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
    const n = encoder.encodeInto(piece, scratch).written;
    const count = n <= 1 || rankOf(table, scratch, 0, n) !== NO_RANK ? Math.min(n, 1) : mergeCount(table, scratch, n);
    if (cache.size < 100_000) cache.set(piece, count);
    return count;
  };
  // A regex of our own: eachPiece sets its lastIndex.
  const split = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);
  return (text: string) => {
    let total = 0;
    eachPiece(text, split, (start, end) => {
      total += countPiece(text.slice(start, end));
    });
    return total;
  };
}

// ---------------------------------------------------------------------------------------------
// The table as one binary file, so a process reads it instead of decoding 200,000 base64 lines
// (about 40 ms). rolldown.config.js writes it beside the bundle at build time.

/** File name of the prebuilt table, beside the bundled code. */
export const PREBUILT_RANK_TABLE = 'o200k_base.ranks';
const MAGIC = 0x6b303032; // "200k" little-endian
const VERSION = 1;
const HEADER_INTS = 8;

/** The table as bytes: an Int32 header, offsets, ranks, slots, then the token bytes. */
export function encodeRankTable(table: RankTable): Uint8Array {
  const ints = HEADER_INTS + table.offsets.length + table.ranks.length + table.slots.length;
  const out = new Uint8Array(ints * 4 + table.offsets[table.offsets.length - 1]!);
  const view = new Int32Array(out.buffer, 0, ints);
  view.set([MAGIC, VERSION, table.ranks.length, table.offsets[table.offsets.length - 1]!, table.slots.length]);
  let at = HEADER_INTS;
  for (const part of [table.offsets, table.ranks, table.slots]) {
    view.set(part, at);
    at += part.length;
  }
  out.set(table.bytes.subarray(0, table.offsets[table.offsets.length - 1]!), ints * 4);
  return out;
}

/** The table encodeRankTable wrote, or null if `file` is not one (another version or byte order). */
export function decodeRankTable(file: Uint8Array): RankTable | null {
  // Int32Array views need a 4-byte aligned offset; a pooled Buffer may not have one. Copy with
  // the Uint8Array constructor: Buffer's slice() is a view at the same offset, not a copy.
  const buf = file.byteOffset % 4 === 0 ? file : new Uint8Array(file);
  if (buf.length < HEADER_INTS * 4) return null;
  const header = new Int32Array(buf.buffer, buf.byteOffset, HEADER_INTS);
  if (header[0] !== MAGIC || header[1] !== VERSION) return null;
  const [tokens, byteCount, slotCount] = [header[2]!, header[3]!, header[4]!];
  const ints = HEADER_INTS + tokens + 1 + tokens + slotCount;
  if (buf.length !== ints * 4 + byteCount || (slotCount & (slotCount - 1)) !== 0) return null;
  let at = buf.byteOffset + HEADER_INTS * 4;
  const take = (n: number) => {
    const part = new Int32Array(buf.buffer, at, n);
    at += n * 4;
    return part;
  };
  const offsets = take(tokens + 1);
  const ranks = take(tokens);
  const slots = take(slotCount);
  return { bytes: new Uint8Array(buf.buffer, at, byteCount), offsets, ranks, slots, mask: slotCount - 1 };
}

/** Reads gpt-tokenizer's o200k_base rank file (the source of the prebuilt table). */
export function readO200kRankFile(): RankTable {
  const file = createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken');
  return readRankTable(fs.readFileSync(file));
}

let shared: TokenCounter | undefined;

/**
 * The o200k_base counter, loaded on first use (once per thread): from the prebuilt table beside
 * the bundle, else (running from build/src or the TypeScript sources) from gpt-tokenizer's file.
 */
export function o200kTokenCounter(): TokenCounter {
  if (!shared) {
    const prebuilt = new URL(`./${PREBUILT_RANK_TABLE}`, import.meta.url);
    const table = (fs.existsSync(prebuilt) ? decodeRankTable(fs.readFileSync(prebuilt)) : null) ?? readO200kRankFile();
    shared = makeTokenCounter(table);
  }
  return shared;
}
