/**
 * Offset ↔ (line, column) for one text. Lines end where CommonMark ends them: at \n, at \r\n, or at a
 * lone \r (old Mac files; reading those as one line put every position on line 1). Both are 1-based;
 * columns count UTF-16 code units, as mdast, SARIF and editors using JS do.
 */
export class LineIndex {
  private readonly starts: number[];

  constructor(readonly text: string) {
    this.starts = lineStarts(text);
  }

  get lineCount(): number {
    // A final line break does not open a further line.
    const n = this.starts.length;
    if (this.text.length === 0) return 0;
    return endsWithLineBreak(this.text) ? n - 1 : n;
  }

  /** 1-based position of a string index (clamped to the text). */
  position(offset: number): { line: number; column: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - this.starts[lo]! + 1 };
  }

  /** String index of the start of the line holding `offset`. */
  lineStart(offset: number): number {
    return offset - this.position(offset).column + 1;
  }

  /** String index of a 1-based line's first character. */
  offsetOfLine(line: number): number {
    return this.starts[Math.max(0, Math.min(line - 1, this.starts.length - 1))]!;
  }
}

/** Any CommonMark line ending: \r\n, \n or a lone \r. */
export const LINE_BREAK = /\r\n|\r|\n/;

/** The text's lines without their endings (a final line break gives a last empty string, as split does). */
export function splitLines(text: string): string[] {
  return text.includes('\r') ? text.split(LINE_BREAK) : text.split('\n');
}

/** Same text, every lone \r turned into \n: same length and offsets, for parsers that only know \n and \r\n. */
export function normaliseLoneCr(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

export function endsWithLineBreak(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last === 10 || last === 13;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}
