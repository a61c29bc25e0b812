/**
 * Line-level reading of markdown shared by the parse budget (parse-budget.ts) and the bounded
 * block scan (block-scan.ts): lines with any CommonMark line ending, the container prefix of a line
 * (block quote markers, list markers, indentation), code fences, and delimiter runs. Everything here
 * is linear in the input and never recurses, so it is safe on any file.
 */

export interface LineRecord {
  /** Index of the line's first character. */
  readonly start: number;
  /** Index just past its last character (before the line ending). */
  readonly end: number;
  /** Index just past the line ending (the next line's start). */
  readonly next: number;
}

/** The lines of text[from..], each with its exact offsets; \r\n, \n and a lone \r end a line. */
export function* lineRecords(text: string, from: number): Generator<LineRecord> {
  let start = from;
  const hasCr = text.includes('\r', from);
  while (start < text.length) {
    let end: number;
    let next: number;
    if (!hasCr) {
      const nl = text.indexOf('\n', start);
      end = nl < 0 ? text.length : nl;
      next = nl < 0 ? text.length : nl + 1;
    } else {
      end = start;
      while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
      next = end < text.length && text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : Math.min(end + 1, text.length);
    }
    yield { start, end, next };
    start = next;
  }
}

export interface LinePrefix {
  /** Characters of the prefix (indentation and container markers with the blanks after them). */
  readonly length: number;
  /** Columns of blanks before the first non-blank character (a tab advances to the next multiple of 4). */
  readonly indent: number;
  /** Column at which the line's content starts, after every marker. */
  readonly contentColumn: number;
  readonly quoteMarkers: number;
  readonly listMarkers: number;
  /** Number of the first ordered list marker (`3.` → 3), or null. */
  readonly orderedNumber: number | null;
  /** Index (within the line) of the last list marker, or -1. */
  readonly markerIndex: number;
  /** Content column after each list marker on the line, in order (`- - x` opens two levels). */
  readonly listContentColumns: readonly number[];
}

const THEMATIC_BREAK = /^(?:([-*_])[ \t]*)(?:\1[ \t]*){2,}$/;

export function measurePrefix(line: string): LinePrefix {
  let i = 0;
  let col = 0;
  let quoteMarkers = 0;
  let listMarkers = 0;
  let orderedNumber: number | null = null;
  let markerIndex = -1;
  const listContentColumns: number[] = [];
  const blanks = () => {
    while (i < line.length) {
      const c = line.charCodeAt(i);
      if (c === 32) col++;
      else if (c === 9) col += 4 - (col % 4);
      else break;
      i++;
    }
  };
  blanks();
  const indent = col;
  for (;;) {
    const c = line[i];
    if (c === '>') {
      quoteMarkers++;
      i++;
      col++;
      blanks();
      continue;
    }
    if (THEMATIC_BREAK.test(line.slice(i))) break;
    const m = /^(?:[-*+]|(\d{1,9})[.)])(?=[ \t]|$)/.exec(line.slice(i, i + 11));
    if (!m) break;
    listMarkers++;
    markerIndex = i;
    if (m[1] !== undefined && orderedNumber === null) orderedNumber = Number(m[1]);
    i += m[0].length;
    col += m[0].length;
    const afterMarker = col;
    blanks();
    // Content starts after the marker and its blanks, but 5+ blanks mean one blank and indented code.
    listContentColumns.push(col - afterMarker >= 5 || i >= line.length ? afterMarker + 1 : col);
  }
  return { length: i, indent, contentColumn: col, quoteMarkers, listMarkers, orderedNumber, markerIndex, listContentColumns };
}

export interface FenceOpening {
  readonly char: '`' | '~';
  readonly length: number;
  /** The info string after the fence, trimmed. */
  readonly info: string;
}

/** A code fence opening at the start of `rest` (the line after its container prefix), or null. */
export function fenceOpening(rest: string): FenceOpening | null {
  const m = /^(`{3,}|~{3,})(.*)$/.exec(rest);
  if (!m) return null;
  const char = m[1]![0] as '`' | '~';
  // A backtick fence's info string cannot hold a backtick (that line is inline code).
  if (char === '`' && m[2]!.includes('`')) return null;
  return { char, length: m[1]!.length, info: m[2]!.trim() };
}

/** Whether `rest` (a line after its container prefix) closes `fence`. */
export function isFenceClose(rest: string, fence: FenceOpening): boolean {
  const m = /^(`{3,}|~{3,})[ \t]*$/.exec(rest);
  return m !== null && m[1]![0] === fence.char && m[1]!.length >= fence.length;
}

/** What one paragraph holds of the delimiters the inline parser pairs up. */
export interface InlineDelimiters {
  /** Runs of `*`, `_` and (GFM) `~`: attention is resolved pairwise between them. */
  emphasis: number;
  /** `[` and `]`: label ends search back through the open label starts. */
  brackets: number;
  /** Backtick runs: [offset within the paragraph, run length], in order. */
  readonly ticks: [number, number][];
  /** Characters so far (lines joined by one character). */
  length: number;
}

export function emptyDelimiters(): InlineDelimiters {
  return { emphasis: 0, brackets: 0, ticks: [], length: 0 };
}

/** Adds one line of a paragraph to its delimiter counts. */
export function addDelimiters(into: InlineDelimiters, line: string, gfm: boolean): void {
  if (into.length > 0) into.length++;
  const base = into.length;
  let previous = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 96) {
      let j = i;
      while (j < line.length && line.charCodeAt(j) === 96) j++;
      into.ticks.push([base + i, j - i]);
      i = j - 1;
      previous = -1;
      continue;
    }
    if (c === 42 || c === 95 || (gfm && c === 126)) {
      if (c !== previous) into.emphasis++;
      previous = c;
      continue;
    }
    if (c === 91 || c === 93) into.brackets++;
    previous = -1;
  }
  into.length += line.length;
}

/**
 * An upper bound of the inline parser's pairing work in one paragraph, in character steps:
 * emphasis runs pairwise, brackets pairwise (a tenth as costly per pair, as measured), and for each
 * backtick run the scan to the next run of the same length (or to the paragraph's end when there
 * is none), which is how a code span finds its closing run.
 */
export function inlineWork(d: InlineDelimiters): number {
  let ticks = 0;
  const nextOfLength = new Map<number, number>();
  for (let k = d.ticks.length - 1; k >= 0; k--) {
    const [at, length] = d.ticks[k]!;
    ticks += (nextOfLength.get(length) ?? d.length) - at;
    nextOfLength.set(length, at);
  }
  return d.emphasis * d.emphasis + (d.brackets * d.brackets) / 10 + ticks / 2;
}
