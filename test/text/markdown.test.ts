import { describe, expect, it } from 'vitest';
import { parseMarkdown, splitUnits } from '../../src/text/markdown.js';
import { LineIndex } from '../../src/text/line-index.js';

function units(text: string, bodyStart = 0) {
  return splitUnits('s', text, bodyStart, parseMarkdown(text), new LineIndex(text));
}

describe('splitUnits', () => {
  it('partitions the body exactly: preamble, then one unit per top-level heading', () => {
    const fm = '---\nname: s\n---\n';
    const text = `${fm}Intro line.\n\n# Title\n\nText.\n\n## Step one\n\n1. a\n2. b\n\n### Detail\nmore\n## Step two\nend\n`;
    const { units: us } = units(text, fm.length);
    expect(fm + us.map((u) => u.text).join('')).toBe(text);
    expect(us.map((u) => [u.kind, u.heading, u.level])).toEqual([
      ['preamble', null, 0],
      ['section', 'Title', 1],
      ['section', 'Step one', 2],
      ['section', 'Detail', 3],
      ['section', 'Step two', 2],
    ]);
    expect(us[3]!.headingPath).toEqual(['Title', 'Step one', 'Detail']);
    expect(us[4]!.headingPath).toEqual(['Title', 'Step two']);
    expect(us.map((u) => u.line)).toEqual([4, 6, 10, 15, 17]);
    for (const u of us) expect(text.slice(u.start, u.end)).toBe(u.text);
  });

  it('keeps an empty preamble as unit 0 when the body opens with a heading', () => {
    const { units: us } = units('# A\ntext\n');
    expect(us[0]).toMatchObject({ kind: 'preamble', text: '', start: 0, end: 0 });
    expect(us[1]).toMatchObject({ heading: 'A', start: 0 });
  });

  it('does not split at # lines inside code or at headings nested in lists', () => {
    const text = '# A\n```bash\n# not a heading\n```\n- # list heading\n# B\n';
    const { units: us } = units(text);
    expect(us.map((u) => u.heading)).toEqual([null, 'A', 'B']);
  });

  it('splits at setext headings from the start of their text line', () => {
    const text = 'intro\n\nTitle\n=====\nbody\n';
    const { units: us } = units(text);
    expect(us[1]).toMatchObject({ heading: 'Title', level: 1, start: 7 });
  });

  it('collects code blocks, inline code, links and numbered steps per unit', () => {
    const text = '# Run\n\n1. Install `pdfplumber`.\n2. Run [the script](scripts/run.py):\n\n```bash\npython scripts/run.py in.pdf --out out.txt\n```\n\n- [x] done\n';
    const [, run] = units(text).units;
    expect(run!.codeBlocks).toEqual([expect.objectContaining({ lang: 'bash', value: 'python scripts/run.py in.pdf --out out.txt', fenced: true, closed: true, line: 6 })]);
    expect(run!.inlineCode.map((c) => c.value)).toEqual(['pdfplumber']);
    expect(run!.links).toEqual([expect.objectContaining({ url: 'scripts/run.py', text: 'the script', kind: 'link', line: 4 })]);
    expect(run!.bullets.map((b) => [b.ordered, b.number, b.text, b.checked])).toEqual([
      [true, 1, 'Install pdfplumber.', null],
      [true, 2, 'Run the script:', null],
      [false, null, 'done', true],
    ]);
  });

  it('finds an unclosed fence and says where it opened', () => {
    const text = '# A\ntext\n\n````python\nx = 1\n# B\n';
    const r = units(text);
    expect(r.unclosedFences).toEqual([{ offset: 10, fence: '````' }]);
    expect(r.units.map((u) => u.heading)).toEqual([null, 'A']);
    expect(r.units[1]!.codeBlocks[0]!.closed).toBe(false);
  });

  it('treats a fence closed inside a block quote or list as closed', () => {
    const text = '> ```js\n> a()\n> ```\n\n- step\n\n  ```sh\n  ls\n  ```\n';
    const r = units(text);
    expect(r.unclosedFences).toEqual([]);
    expect(r.units[0]!.codeBlocks.map((c) => c.closed)).toEqual([true, true]);
  });
});
