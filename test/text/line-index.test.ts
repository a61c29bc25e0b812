import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/text/line-index.js';

describe('LineIndex', () => {
  const idx = new LineIndex('ab\r\ncd\n\nef');
  it('maps offsets to 1-based line and column', () => {
    expect(idx.position(0)).toEqual({ line: 1, column: 1 });
    expect(idx.position(2)).toEqual({ line: 1, column: 3 }); // the \r belongs to line 1
    expect(idx.position(4)).toEqual({ line: 2, column: 1 });
    expect(idx.position(7)).toEqual({ line: 3, column: 1 });
    expect(idx.position(9)).toEqual({ line: 4, column: 2 });
  });
  it('gives line starts and counts lines like an editor', () => {
    expect(idx.lineStart(5)).toBe(4);
    expect(idx.offsetOfLine(4)).toBe(8);
    expect(idx.lineCount).toBe(4);
    expect(new LineIndex('a\n').lineCount).toBe(1);
    expect(new LineIndex('').lineCount).toBe(0);
  });
});

describe('LineIndex with lone CR line endings (as CommonMark reads them)', () => {
  it('ends a line at a lone \\r, at \\r\\n and at \\n alike', () => {
    const idx = new LineIndex('a\rb\r\nc\nd');
    expect([0, 2, 5, 7].map((o) => idx.position(o))).toEqual([
      { line: 1, column: 1 },
      { line: 2, column: 1 },
      { line: 3, column: 1 },
      { line: 4, column: 1 },
    ]);
    expect(idx.lineCount).toBe(4);
    expect(new LineIndex('a\r').lineCount).toBe(1);
    expect(idx.offsetOfLine(2)).toBe(2);
  });
});
