/**
 * Offset ↔ (line, column) for one text. Lines end at \n; a \r before it belongs to the line.
 * Both are 1-based; columns count UTF-16 code units, as mdast, SARIF and editors using JS do.
 */
export class LineIndex {
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = starts;
  }

  get lineCount(): number {
    // A final newline does not open a further line.
    const n = this.starts.length;
    return this.text.length > 0 && this.text.endsWith('\n') ? n - 1 : this.text.length === 0 ? 0 : n;
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
