import { describe, expect, it } from 'vitest';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { literalsScoped, parseMarkdown, splitUnits } from '../../src/text/markdown.js';
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

describe('GFM autolink literals, run only on the blocks that may hold one', () => {
  const remark = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).freeze();
  const literal = (tree: unknown): string[] => JSON.stringify(tree).match(/"url":"[^"]*"/g) ?? [];

  it.each([
    ['bare www and http links in prose', 'See www.example.com and https://example.org/path?q=1 for more.\n'],
    ['an email, mailto: and xmpp:', 'Mail a.b+c@example.com, mailto:x@example.com or xmpp:me@chat.example.org/home.\n'],
    ['a literal inside emphasis, a heading, a list and a table', '# Docs at www.docs.dev\n\n- *see http://a.io*\n- **b@c.de**\n\n| a | b |\n|---|---|\n| www.x.org | y@z.com |\n'],
    ['text inside a link or a reference is left alone', '[www.a.com](http://b.com) and [http://c.com][ref]\n\n[ref]: http://d.com\n'],
    ['a literal from a character reference', 'Write to a&#64;b.com or &#119;ww.example.com.\n'],
    ['no literal at all, and lookalikes', 'An @mention, a www without a dot, http:/broken and foo@bar.\n'],
    ['frontmatter and code are not text', '---\nname: x\nhomepage: https://x.dev\n---\n\n```\nhttps://in.code\n```\n\n`www.inline.code`\n'],
    ['many blocks, some with literals', Array.from({ length: 30 }, (_, i) => (i % 7 === 0 ? `Para ${i} at www.site${i}.com.` : `Para ${i} plain.`)).join('\n\n') + '\n'],
  ])('%s: the same tree as remark-gfm', (_, text) => {
    expect(parseMarkdown(text)).toEqual(remark.parse(text));
  });

  it('runs per block: the transform mdast-util-gfm registers is the one skillc runs', () => {
    expect(literalsScoped()).toBe(true);
  });

  it('does link the literals (the comparison above is not between two trees without them)', () => {
    expect(literal(parseMarkdown('See www.example.com, a@b.com and https://x.org.\n'))).toEqual(['"url":"http://www.example.com"', '"url":"mailto:a@b.com"', '"url":"https://x.org"']);
  });
});
