/**
 * A first hit over the budget is cut at a line boundary (query/hydrate.ts truncate). A cut inside a
 * fenced code block or a <details> element closes it, so the note after it, and the hits after
 * that, are not read as code or folded away.
 */
import { describe, expect, it } from 'vitest';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import type { Root, RootContent } from 'mdast';
import { closersOf, truncate } from '../../src/query/hydrate.js';
import { loadTokenCounter } from '../../src/text/bpe.js';
import { blockParser, parsedClosers, scannedClosers } from '../../src/text/open-blocks.js';

describe('closersOf', () => {
  it('closes a fence with its own character and length, and only an open one', async () => {
    const lines = ['# A', '', '````bash', 'echo ```', 'ls', '````', 'text', '~~~', 'x'];
    expect(await closersOf(lines, 4)).toBe('````\n');
    expect(await closersOf(lines, 6)).toBe('');
    expect(await closersOf(lines, 9)).toBe('~~~\n');
  });

  it('reads the fences of a file with CRLF line endings (split at \\n, each line keeps its \\r)', async () => {
    const lines = ['# A\r', '```bash\r', 'ls\r', '```\r', 'text\r', '~~~\r', 'x\r'];
    expect(await closersOf(lines, 3)).toBe('```\n');
    expect(await closersOf(lines, 5)).toBe('');
    expect(await closersOf(lines, 7)).toBe('~~~\n');
  });

  it('takes a line of inline code for no fence, and a short fence for no closer', async () => {
    expect(await closersOf(['```js `x` ```', 'text'], 2)).toBe('');
    expect(await closersOf(['````', '```', 'still code'], 3)).toBe('````\n');
  });

  it('closes <details> opened outside code, not those shown in code', async () => {
    const lines = ['<details><summary>More</summary>', '', '```html', '<details>', '```', 'body', '<DETAILS>', '</details>'];
    expect(await closersOf(lines, 2)).toBe('</details>\n');
    expect(await closersOf(lines, 4)).toBe('```\n</details>\n');
    expect(await closersOf(lines, 7)).toBe('</details>\n</details>\n');
    expect(await closersOf(lines, 8)).toBe('</details>\n');
  });
});

describe('closersOf, in containers', () => {
  it('closes a fence in a list item or a block quote at the opener\'s column, inside the quote', async () => {
    expect(await closersOf(['1. Run it:', '   ```bash', '   make'], 3)).toBe('   ```\n');
    expect(await closersOf(['- ```bash', '  make'], 2)).toBe('  ```\n');
    expect(await closersOf(['> ```', '> make'], 2)).toBe('> ```\n');
    expect(await closersOf(['- item', '  ```', '  make', '  ```', 'after'], 5)).toBe('');
  });

  it('counts no <details> named in inline code or a comment', async () => {
    expect(await closersOf(['Wrap it in `<details>` tags.', '<!-- <details> -->'], 2)).toBe('');
    expect(await closersOf(['`x` <details>'], 1)).toBe('</details>\n');
  });
});

describe('closersOf, against a CommonMark parser', () => {
  it('reads no fence in indented code, and no closer in code shown inside a fence', async () => {
    // Indented code is no fence: the real fence after it is the one left open.
    expect(await closersOf(['Para', '', '    ```', '    shown', '', '```bash', 'make'], 7)).toBe('```\n');
    expect(await closersOf(['- item', '', '      ```', '      shown', '', '```bash', 'make'], 7)).toBe('```\n');
    // A fence shown indented, or quoted, inside a top-level fence does not close it.
    expect(await closersOf(['```markdown', '1. Install:', '', '    ```bash', '    npm i', '    ```', '```', 'after'], 8)).toBe('');
    expect(await closersOf(['```markdown', '> ```bash', '> npm test', '> ```'], 4)).toBe('```\n');
    // A lone \r ends a line: here it closes the fence (and never makes an index run past the lines).
    expect(await closersOf(['```js', 'code', '```\ry', 'more'], 4)).toBe('');
    expect(await closersOf(['- Install:', '  ```bash', '  pip install x', '  ```', 'Old notes\r```'], 5)).toBe('```\n');
    // A link reference definition and a line of HTML are a paragraph, which a fence interrupts.
    expect(await closersOf(['[badge]: https://img.example/x', '<img src="logo.png" width="80">', '```bash', 'npm install'], 4)).toBe('```\n');
    // A comment or a <pre> block over several lines ends only at its end mark.
    expect(await closersOf(['Text.', '', '<!-- draft', 'more'], 4)).toBe('-->\n');
    expect(await closersOf(['<pre>', 'x'], 2)).toBe('</pre>\n');
    expect(await closersOf(['<!-- done -->', '<pre>x</pre>'], 2)).toBe('');
    // In a list item or a quote, the mark goes inside it; <details> in a comment or a script is no element.
    expect(await closersOf(['- a', '', '  <!-- x', '  y'], 4)).toBe('  -->\n');
    expect(await closersOf(['> <details>', '>', '> <!-- a'], 3)).toBe('> -->\n</details>\n');
    expect(await closersOf(['<details>', '', '<!--', '<details>', 'x'], 5)).toBe('-->\n</details>\n');
    expect(await closersOf(['<script>', 'var s = "<details>";'], 2)).toBe('</script>\n');
    // A comment opened after one closed on the same line is open.
    expect(await closersOf(['<!-- a --> <!-- b'], 1)).toBe('-->\n');
    expect(await closersOf(['<!-->', 'text'], 2)).toBe('');
    // After a raw block's end mark on its line, a <details> is an element again.
    expect(await closersOf(['<!-- a --> <details>', '', 'x'], 3)).toBe('</details>\n');
    expect(await closersOf(['<pre>a</pre><details>', '', 'x'], 3)).toBe('</details>\n');
    expect(await closersOf(['- <!-- a --> <details>', '', '  x'], 3)).toBe('</details>\n');
    expect(await closersOf(['<script>', 'var s = "<details>"; </script>', '', 'x'], 4)).toBe('');
    // Deep nesting before a fence is still read.
    const deep = ['- ```', '  a', '  ```', ...Array.from({ length: 10 }, (_, i) => `${'  '.repeat(i)}- x`), '', '```bash', 'npm install'];
    expect(await closersOf(deep, deep.length)).toBe('```\n');
  });

  it('leaves the text after the closers outside code, on generated documents', async () => {
    const pieces = ['```', '~~~~', '```bash', 'text', '- ', '1. ', '10. ', '> ', '  ', '    ', '\t', '', 'code line', '<details>', '`x`', '<!--', '-->', '<pre>'];
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const parse = (text: string) => unified().use(remarkParse).parse(text) as Root;
    /** Whether a paragraph of the document's last top-level node reads NOTE-MARK. */
    const noteOutside = (tree: Root): boolean => {
      const walk = (n: RootContent | Root): boolean => n.type === 'paragraph' ? n.children.some((c) => c.type === 'text' && c.value.includes('NOTE-MARK')) : 'children' in n && (n.children as RootContent[]).some(walk);
      return walk(tree.children[tree.children.length - 1]!);
    };
    let checked = 0;
    for (let k = 0; k < 1500; k++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 8) }, () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => pieces[Math.floor(next() * pieces.length)]).join(''));
      const closers = (await closersOf(lines, lines.length)).replace(/<\/details>\n/g, '');
      const text = `${lines.join('\n')}\n${closers}\nNOTE-MARK\n`;
      expect(noteOutside(parse(text)), JSON.stringify(lines)).toBe(true);
      checked++;
    }
    expect(checked).toBe(1500);
  });

  it('scans a text by lines only where that reads it as the parser does', async () => {
    const md = await blockParser();
    const pieces = ['```', '~~~~', '```bash', 'text', '- ', '1. ', '> ', '  ', '    ', '\t', '', 'code line', '<details>', '<!-- c -->', '`x`', '</details>', '<!--', '-->', '<pre>', '</pre>'];
    let seed = 3;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    let scanned = 0;
    for (let k = 0; k < 3000; k++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 8) }, () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => pieces[Math.floor(next() * pieces.length)]).join(''));
      const byLines = scannedClosers(lines);
      if (byLines === null) continue;
      scanned++;
      expect(byLines, JSON.stringify(lines)).toBe(parsedClosers(lines, md));
    }
    // The scan reads a good share of them (the rest go to the parser).
    expect(scanned).toBeGreaterThan(300);
  });
});

describe('truncate', () => {
  it('closes the block the cut falls in before the note', async () => {
    const text = ['# Setup', '', '```bash', ...Array.from({ length: 400 }, (_, i) => `echo step ${i} of a long script`), '```', '', 'After.'].join('\n');
    const cut = (await truncate(text, 300, 'bundles/x.md'))!;
    expect(cut.tokens).toBeLessThanOrEqual(300);
    const [kept, note] = cut.text.split('\n[skillc: truncated after ');
    expect(note).toMatch(/^\d+ of 406 lines to fit the budget; the rest is in `bundles\/x\.md`\]\n$/);
    expect(kept!.trimEnd().endsWith('\n```')).toBe(true);
    expect((kept!.match(/^```/gm) ?? []).length).toBe(2);
  });

  it('keeps the longest prefix that fits, also where the closers are many lines long', async () => {
    // Forty nested <details> opened early: a cut late in the text needs forty closers, so the
    // longest prefix that fits with them is far shorter than the longest that fits without.
    const shallow = ['# A', '', ...Array.from({ length: 60 }, (_, i) => `Line ${i} of plain prose, a few words long.`)];
    const deep = ['# B', ...Array.from({ length: 40 }, () => '<details>'), '', ...Array.from({ length: 60 }, (_, i) => `Line ${i} of plain prose, a few words long.`)];
    const fenced = ['# C', '', '- item', '  ```sh', ...Array.from({ length: 60 }, (_, i) => `  echo ${i} and more words`)];
    const count = await loadTokenCounter();
    for (const lines of [shallow, deep, fenced]) {
      const text = lines.join('\n');
      for (const room of [40, 120, 300, 500]) {
        const cut = await truncate(text, room, 'bundles/x.md');
        // By brute force: the last n whose rendering fits.
        let longest = -1;
        for (let n = 0; n <= lines.length; n++) {
          const rendered = `${lines.slice(0, n).join('\n')}\n${await closersOf(lines, n)}\n[skillc: truncated after ${n} of ${lines.length} lines to fit the budget; the rest is in \`bundles/x.md\`]\n`;
          if (count(rendered) <= room) longest = n;
        }
        if (longest < 0) expect(cut).toBeNull();
        else {
          expect(cut!.text, `${lines[0]} at ${room}`).toMatch(new RegExp(`truncated after ${longest} of`));
          expect(cut!.tokens).toBeLessThanOrEqual(room);
        }
      }
    }
  });
});
