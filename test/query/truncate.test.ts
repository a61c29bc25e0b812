/**
 * A first hit over the budget is cut at a line boundary (query/hydrate.ts truncate). A cut inside a
 * fenced code block or a <details> element closes it, so the note after it, and the hits after
 * that, are not read as code or folded away.
 */
import { describe, expect, it } from 'vitest';
import { closersOf, truncate } from '../../src/query/hydrate.js';

describe('closersOf', () => {
  it('closes a fence with its own character and length, and only an open one', () => {
    const lines = ['# A', '', '````bash', 'echo ```', 'ls', '````', 'text', '~~~', 'x'];
    expect(closersOf(lines, 4)).toBe('````\n');
    expect(closersOf(lines, 6)).toBe('');
    expect(closersOf(lines, 9)).toBe('~~~\n');
  });

  it('reads the fences of a file with CRLF line endings (split at \\n, each line keeps its \\r)', () => {
    const lines = ['# A\r', '```bash\r', 'ls\r', '```\r', 'text\r', '~~~\r', 'x\r'];
    expect(closersOf(lines, 3)).toBe('```\n');
    expect(closersOf(lines, 5)).toBe('');
    expect(closersOf(lines, 7)).toBe('~~~\n');
  });

  it('takes a line of inline code for no fence, and a short fence for no closer', () => {
    expect(closersOf(['```js `x` ```', 'text'], 2)).toBe('');
    expect(closersOf(['````', '```', 'still code'], 3)).toBe('````\n');
  });

  it('closes <details> opened outside code, not those shown in code', () => {
    const lines = ['<details><summary>More</summary>', '', '```html', '<details>', '```', 'body', '<DETAILS>', '</details>'];
    expect(closersOf(lines, 2)).toBe('</details>\n');
    expect(closersOf(lines, 4)).toBe('```\n</details>\n');
    expect(closersOf(lines, 7)).toBe('</details>\n</details>\n');
    expect(closersOf(lines, 8)).toBe('</details>\n');
  });
});

describe('closersOf, in containers', () => {
  it('closes a fence in a list item or a block quote at the opener\'s column, inside the quote', () => {
    expect(closersOf(['1. Run it:', '   ```bash', '   make'], 3)).toBe('   ```\n');
    expect(closersOf(['- ```bash', '  make'], 2)).toBe('  ```\n');
    expect(closersOf(['> ```', '> make'], 2)).toBe('> ```\n');
    expect(closersOf(['- item', '  ```', '  make', '  ```', 'after'], 5)).toBe('');
  });

  it('counts no <details> named in inline code or a comment', () => {
    expect(closersOf(['Wrap it in `<details>` tags.', '<!-- <details> -->'], 2)).toBe('');
    expect(closersOf(['`x` <details>'], 1)).toBe('</details>\n');
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
});
