/**
 * The parse budget: bodies on which the full parser's work grows faster than the file are caught by
 * the linear pre-scan (with the reason and the line where the budget ran out), ordinary markdown is
 * not, and the decision depends on the text only.
 */
import { describe, expect, it } from 'vitest';
import { assessParseBudget, measureParseCost, MAX_FULL_PARSE_CHARS, MAX_NESTING } from '../../src/text/parse-budget.js';
import { LineIndex } from '../../src/text/line-index.js';
import { PATHOLOGICAL } from '../../bench/pathological-markdown.js';

const line = (text: string, offset: number) => new LineIndex(text).position(offset);

describe('assessParseBudget', () => {
  it.each([
    ['separateLists', 10000, 'containers'],
    ['separateQuotes', 10000, 'containers'],
    ['nestedList', 1000, 'nesting'],
    ['nestedQuotes', 10000, 'nesting'],
    ['unmatchedEmphasis', 20000, 'inline'],
    ['nestedStrong', 5000, 'inline'],
  ] as const)('bounds %s (n=%d) for its %s', (name, n, reason) => {
    const body = PATHOLOGICAL[name]!(n);
    const bound = assessParseBudget(body, 0);
    expect(bound?.reason).toBe(reason);
    expect(bound!.detail.length).toBeGreaterThan(20);
    // The offset is the start of a line of the body.
    expect(bound!.offset === 0 || /[\r\n]/.test(body[bound!.offset - 1]!)).toBe(true);
  });

  it('passes the same shapes at sizes the full parser handles quickly, and ordinary markdown of any shape', () => {
    expect(assessParseBudget(PATHOLOGICAL.separateLists!(500), 0)).toBeNull();
    expect(assessParseBudget(PATHOLOGICAL.nestedList!(MAX_NESTING), 0)).toBeNull();
    expect(assessParseBudget(PATHOLOGICAL.unmatchedEmphasis!(500), 0)).toBeNull();
    expect(assessParseBudget(PATHOLOGICAL.ordinarySections!(1000), 0)).toBeNull();
    const ordinary = '# Title\n\n- a *b* `c`\n  - d [e](f)\n\n> quote **bold**\n\n| x | y |\n|---|---|\n| `1` | _2_ |\n\n```bash\necho "*_`[\"\n```\n';
    expect(assessParseBudget(ordinary.repeat(200), 0)).toBeNull();
  });

  it('reports a body over the size limit at the start of the line where the limit is passed', () => {
    const body = 'word '.repeat(20) + '\n';
    const text = '---\nname: x\n---\n' + body.repeat(Math.ceil((MAX_FULL_PARSE_CHARS + 1000) / body.length));
    const bound = assessParseBudget(text, 16)!;
    expect(bound.reason).toBe('size');
    expect(line(text, bound.offset).column).toBe(1);
    expect(bound.offset).toBeLessThanOrEqual(16 + MAX_FULL_PARSE_CHARS);
  });

  it('reports the earliest excess: deep nesting early in a large body is named, not the size', () => {
    const text = PATHOLOGICAL.nestedList!(40) + 'text\n'.repeat(MAX_FULL_PARSE_CHARS / 4);
    expect(assessParseBudget(text, 0)).toMatchObject({ reason: 'nesting' });
  });

  it('does not count what sits inside a code fence (indentation, delimiters)', () => {
    const code = '```text\n' + Array.from({ length: 100 }, (_, i) => `${' '.repeat(i)}- *a_ [\n`).join('') + '```\n';
    expect(assessParseBudget(code.repeat(20), 0)).toBeNull();
    expect(measureParseCost(code, 0).maxDepth).toBe(0);
  });

  it('ends a fence where its container ends, so a fake fence cannot hide what follows', () => {
    // A fence opened in a list item ends with the item; the emphasis after it is counted.
    const text = '- item\n  ```\n' + PATHOLOGICAL.unmatchedEmphasis!(20000);
    expect(assessParseBudget(text, 0)).toMatchObject({ reason: 'inline' });
    // Indented four columns at top level it is indented code, not a fence.
    const indented = 'para\n\n    ```\n\n' + PATHOLOGICAL.unmatchedEmphasis!(20000);
    expect(assessParseBudget(indented, 0)).toMatchObject({ reason: 'inline' });
  });

  it('measures list nesting from open items: lazy lines do not hide it, a deep indent alone is not nesting', () => {
    const lazy = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- level ${i}\nlazy text\n`).join('');
    expect(measureParseCost(lazy, 0).maxDepth).toBe(40);
    const art = 'A diagram outside any fence:\n' + Array.from({ length: 10 }, () => `${' '.repeat(70)}|\n`).join('');
    expect(measureParseCost(art, 0).maxDepth).toBe(0);
    expect(measureParseCost('- - - - x\n', 0).maxDepth).toBe(4);
  });

  it('is a function of the text alone', () => {
    const body = PATHOLOGICAL.separateLists!(3000);
    expect(assessParseBudget(body, 0)).toEqual(assessParseBudget(body, 0));
  });
});
