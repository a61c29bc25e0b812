/**
 * The bounded parse (line-level scan): units partition the body exactly, at the headings the full
 * parser would split at, with fences, inline code, links and list items at exact offsets; and it
 * agrees with the full parse on ordinary markdown.
 */
import { describe, expect, it } from 'vitest';
import { scanUnits } from '../../src/text/block-scan.js';
import { parseMarkdown, splitUnits, unitsOfBody } from '../../src/text/markdown.js';
import { LineIndex } from '../../src/text/line-index.js';
import { PATHOLOGICAL } from '../../bench/pathological-markdown.js';

const scan = (text: string, bodyStart = 0) => scanUnits('s', text, bodyStart, new LineIndex(text));
const full = (text: string, bodyStart = 0) => splitUnits('s', text, bodyStart, parseMarkdown(text), new LineIndex(text));

const ORDINARY = [
  '---\nname: s\n---\n',
  'Intro with `code` and a [link](https://example.com/a).\n\n',
  '# Title\n\nText.\n\n## Install\n\n1. Run this:\n\n   ```bash\n   pip install x\n   ```\n\n2. Then `x --help`.\n\n',
  '```python\n# not a heading\nprint("hi")\n```\n\n',
  'Setext heading\n--------------\n\n- [ ] a task\n- [x] done\n  - nested item\n\n',
  '> quoted ![img](pic.png)\n\n[ref]: https://example.com/ref\n\n### Last ###\n\n~~~\nunclosed',
].join('');

describe('scanUnits', () => {
  it('partitions the body exactly, at the same headings as the full parse', () => {
    const bodyStart = 16;
    const s = scan(ORDINARY, bodyStart);
    const f = full(ORDINARY, bodyStart);
    expect(ORDINARY.slice(0, bodyStart) + s.units.map((u) => u.text).join('')).toBe(ORDINARY);
    expect(s.units.map((u) => [u.start, u.heading, u.level, u.line])).toEqual(f.units.map((u) => [u.start, u.heading, u.level, u.line]));
    expect(s.units.map((u) => u.headingPath)).toEqual(f.units.map((u) => u.headingPath));
  });

  it('finds the code blocks, inline code, links and list items the full parse finds', () => {
    const s = scan(ORDINARY, 16).units;
    const f = full(ORDINARY, 16).units;
    const pick = <T>(us: typeof s, get: (u: (typeof s)[number]) => readonly T[]) => us.flatMap(get);
    expect(pick(s, (u) => u.codeBlocks).map((b) => [b.lang, b.value, b.closed, b.start, b.line])).toEqual(pick(f, (u) => u.codeBlocks).map((b) => [b.lang, b.value, b.closed, b.start, b.line]));
    expect(pick(s, (u) => u.inlineCode).map((c) => [c.value, c.start])).toEqual(pick(f, (u) => u.inlineCode).map((c) => [c.value, c.start]));
    expect(pick(s, (u) => u.links).map((l) => [l.url, l.kind, l.start])).toEqual(pick(f, (u) => u.links).map((l) => [l.url, l.kind, l.start]));
    expect(pick(s, (u) => u.bullets).map((b) => [b.ordered, b.number, b.checked, b.start])).toEqual(pick(f, (u) => u.bullets).map((b) => [b.ordered, b.number, b.checked, b.start]));
    // A list item's text is its first line (the full parse adds the item's further blocks).
    const fullTexts = pick(f, (u) => u.bullets).map((b) => b.text);
    pick(s, (u) => u.bullets).forEach((b, i) => expect(fullTexts[i]!.startsWith(b.text), `${b.text} / ${fullTexts[i]}`).toBe(true));
    expect(pick(s, (u) => u.bullets).map((b) => b.depth)).toEqual(pick(f, (u) => u.bullets).map((b) => b.depth));
  });

  it('reports an unclosed fence where it opens', () => {
    const s = scan(ORDINARY, 16);
    expect(s.unclosedFences).toEqual(full(ORDINARY, 16).unclosedFences);
    expect(s.unclosedFences).toHaveLength(1);
  });

  it('reads lone CR line endings as line breaks', () => {
    const text = '# A\rtext\r```sh\r# not a heading\r```\r# B\r';
    const s = scan(text);
    expect(s.units.map((u) => u.heading)).toEqual([null, 'A', 'B']);
    expect(s.units[1]!.codeBlocks[0]).toMatchObject({ lang: 'sh', value: '# not a heading', closed: true });
    expect(full(text).units.map((u) => u.heading)).toEqual([null, 'A', 'B']);
  });

  it('is linear on a pathological line: 200,000 unpaired backtick runs and brackets', () => {
    const line = '`a ``b [c '.repeat(200000);
    const s = scan(`# H\n${line}\n`);
    expect(s.units).toHaveLength(2);
  });
});

describe('unitsOfBody', () => {
  it('parses ordinary markdown in full and bounded input by the scan, both partitioning the body', () => {
    expect(unitsOfBody('s', ORDINARY, 16, new LineIndex(ORDINARY)).bounded).toBeNull();
    const text = `# T\n\n${PATHOLOGICAL.separateLists!(10000)}`;
    const r = unitsOfBody('s', text, 0, new LineIndex(text));
    expect(r.bounded?.reason).toBe('containers');
    expect(r.units.map((u) => u.text).join('')).toBe(text);
    expect(r.units[1]!.bullets).toHaveLength(10000);
  });

  it('survives nesting that overflows the full parser\'s stack', () => {
    const text = `# T\n\n${PATHOLOGICAL.nestedQuotes!(10000)}${PATHOLOGICAL.nestedStrong!(5000)}`;
    const r = unitsOfBody('s', text, 0, new LineIndex(text));
    expect(r.bounded?.reason).toBe('nesting');
    expect(r.units.map((u) => u.text).join('')).toBe(text);
  });
});

describe('scanUnits caps', () => {
  it('keeps at most MAX_SCANNED_UNITS units, dropping the deepest heading level first, and still partitions the body', async () => {
    const { MAX_SCANNED_UNITS } = await import('../../src/text/block-scan.js');
    const body = Array.from({ length: 1500 }, (_, i) => `# Part ${i}\n\ntext\n\n## Detail ${i}\n\nmore\n\n`).join('');
    const s = scan(body);
    expect(s.units.length).toBeLessThanOrEqual(MAX_SCANNED_UNITS);
    expect(s.units.map((u) => u.text).join('')).toBe(body);
    // The 1,500 level-1 headings fit: every unit after the preamble starts at one of them.
    expect(s.units.slice(1).every((u) => u.level === 1)).toBe(true);
    expect(s.units).toHaveLength(1501);
    expect(s.capped).toBe('only 1501 units for 3000 headings (headings deeper than level 1 do not start units) were recorded');
  });

  it('records at most MAX_SCANNED_ITEMS links and inline code spans, and says how many there were', async () => {
    const { MAX_SCANNED_ITEMS } = await import('../../src/text/block-scan.js');
    const body = '# T\n\n' + '`x` [a](b)\n'.repeat(MAX_SCANNED_ITEMS + 5);
    const s = scan(body);
    expect(s.units.flatMap((u) => u.links)).toHaveLength(MAX_SCANNED_ITEMS);
    expect(s.units.flatMap((u) => u.inlineCode)).toHaveLength(MAX_SCANNED_ITEMS);
    expect(s.capped).toBe(`only the first ${MAX_SCANNED_ITEMS} of ${MAX_SCANNED_ITEMS + 5} inline code spans, the first ${MAX_SCANNED_ITEMS} of ${MAX_SCANNED_ITEMS + 5} links were recorded`);
    expect(s.units.map((u) => u.text).join('')).toBe(body);
  });
});
