import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fastSplitUnits, fastPathAvailable } from '../../src/text/fast-markdown.js';
import { parseMarkdown, splitUnits, unitsOfBody, type SplitUnits } from '../../src/text/markdown.js';
import { splitFrontmatter } from '../../src/text/frontmatter.js';
import { LineIndex } from '../../src/text/line-index.js';

const require = createRequire(import.meta.url);
const spec = require('commonmark-spec') as { tests: { markdown: string; number: number; section: string }[] };

function reference(text: string): SplitUnits {
  const bodyStart = splitFrontmatter(text).frontmatter.raw.length;
  return splitUnits('x/SKILL.md', text, bodyStart, parseMarkdown(text), new LineIndex(text));
}

function fast(text: string) {
  const bodyStart = splitFrontmatter(text).frontmatter.raw.length;
  return fastSplitUnits('x/SKILL.md', text, bodyStart, new LineIndex(text));
}

/** Every document the fast path accepts must give remark's units field for field; returns how many it accepted. */
function acceptedAndEqual(texts: readonly string[]): { accepted: number; mismatches: string[] } {
  let accepted = 0;
  const mismatches: string[] = [];
  for (const text of texts) {
    const got = fast(text);
    if (!got.ok) continue;
    accepted++;
    if (JSON.stringify(got.split) !== JSON.stringify(reference(text))) mismatches.push(JSON.stringify(text));
  }
  return { accepted, mismatches };
}

/** A document in four places: alone, before a heading, inside a list item, inside a block quote. */
function variants(md: string): string[] {
  return [md, `${md}\n\n# H\n\ntext`, `- ${md.replace(/\n/g, '\n  ')}`, `> ${md.replace(/\n(?!$)/g, '\n> ')}`];
}

/** Seeded documents shaped like skills: headings, paragraphs, nested lists, closed fences, tables, quotes, definitions. */
function skillLike(seed: number, count: number): string[] {
  const random = seeded(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(random() * a.length)]!;
  const inline = ['Run', 'the build', 'with `npm test`', '**before** you push', '*carefully*', 'see [docs](docs/a.md)', '![chart](c.png)', 'and `a|b`', 'at ~/.skills', 'a\\*b', '&amp;', 'snake_case_name', 'x * y', '"quoted"', '(note)', 'é', 'see [the guide](https://example.com/guide)', '<https://example.com>', 'at https://example.com', 'mail dev@example.com'];
  const sentence = () => Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(inline)).join(' ');
  const block = (): string[] => {
    switch (Math.floor(random() * 8)) {
      case 0:
        return [`${'#'.repeat(1 + Math.floor(random() * 4))} ${sentence()}`, ''];
      case 1:
        return [sentence(), ...(random() < 0.5 ? [sentence()] : []), ''];
      case 2: {
        const marker = pick(['- ', '* ', '1. ']);
        const items = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, k) => [`${marker === '1. ' ? `${k + 1}. ` : marker}${pick(['', '[ ] ', '[x] '])}${sentence()}`, ...(random() < 0.3 ? [`   - ${sentence()}`] : []), ...(random() < 0.2 ? ['   ```sh', '   make all', '   ```'] : [])]);
        return [...items.flat(), ''];
      }
      case 3:
        return [pick(['```', '```bash', '~~~python', '```js title="x"']).replace('~~~python', '```python'), sentence(), '   indented line', '```', ''];
      case 4:
        return ['| name | value |', pick(['|---|---|', '| :-- | --: |']), `| ${sentence()} | ${sentence()} |`, '| `x\\|y` | ' + sentence() + ' |', ''];
      case 5:
        return [`> ${sentence()}`, `> ${sentence()}`, ''];
      case 6:
        return [`${sentence()}  `, sentence(), ''];
      default:
        return [`[${pick(['ref', 'docs', 'More'])}${Math.floor(random() * 1000)}]: ${pick(['/x', 'a.md', '<b c.md>'])}${pick(['', ' "title"'])}`, ''];
    }
  };
  return Array.from({ length: count }, () => {
    const lines = Array.from({ length: 2 + Math.floor(random() * 10) }, block).flat();
    const eol = random() < 0.2 ? '\r\n' : '\n';
    return (random() < 0.7 ? `---${eol}name: x${eol}---${eol}` : '') + lines.join(eol);
  });
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seeded documents built from pieces of real skills and from CommonMark's corner cases. */
function generated(seed: number, count: number): string[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(a: readonly T[]): T => a[Math.floor(random() * a.length)]!;
  const inline = ['word', 'two words', '`code`', '``a ` b``', '`unclosed', '**bold**', '*em*', '_em_', '__strong__', '***both***', '~~del~~', '~one~', '[a](b.md)', '[a `c` b](<x y> "t")', '![alt *x*](p.png)', '[ref]', '[t][ref]', '[t][]', '\\*esc', '&amp;', '&#35;', 'foo_bar_baz', 'a*b*c', '**a*', '[x]', '[ ]', '|', '\\|', 'a | b', '`a|b`', ':', '(', ')', '"q"', 'é', '\u00a0nb', 'end  ', 'end\\', '~/.ssh', '#tag', '[u](https://x.io/a)', '<https://x.io>', 'https://x.io', 'a@b.co', '`https://c.io`', '[m](mailto:a@b.co "www.t.io")', '(www.x.io)'];
  const line = () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(inline)).join(pick([' ', ' ', '', '  ']));
  const blocks: (() => string)[] = [
    () => `${'#'.repeat(1 + Math.floor(random() * 6))} ${line()}${pick(['', '', ' #'])}`,
    line,
    line,
    line,
    () => pick(['- ', '* ', '+ ', '1. ', '2) ', '10. ', '- [ ] ', '- [x] ', '-   ', '1.  ']) + line(),
    () => `> ${line()}`,
    () => '>',
    () => '',
    () => '',
    () => '   ',
    () => pick(['```', '```js', '``` py title="x"', '~~~', '````']),
    () => `    ${line()}`,
    () => `  ${line()}`,
    () => `| ${line()} | ${line()} |`,
    () => '|---|---|',
    () => '| --- | :-: |',
    () => `[ref]: /u${pick(['', ' "t"', ' <a b>'])}`,
    () => pick(['---', '===', '***', '- - -']),
  ];
  const prefixes = ['', '', '', '', '  ', '   ', '    ', '> ', '- ', '  - ', '1. ', '> - ', '\t'];
  const frontmatter = ['', '', '---\nname: x\n---\n', '---\r\nname: x\r\n---\r\n', '--- \nname: x\n---\n', '---\n---\n', '---\nname: x\n...\n'];
  return Array.from({ length: count }, () => {
    const lines = Array.from({ length: 2 + Math.floor(random() * 14) }, () => (random() < 0.3 ? pick(prefixes) : '') + pick(blocks)());
    const eol = random() < 0.1 ? '\r\n' : '\n';
    return pick(frontmatter) + lines.join(eol) + (random() < 0.8 ? eol : '');
  });
}

describe('fast path: markdown-it read back onto the source', () => {
  it('is available with the pinned markdown-it', () => {
    expect(fastPathAvailable()).toBe(true);
  });

  it('gives remark`s units on every CommonMark spec example it accepts, in and out of containers', () => {
    const texts = spec.tests.flatMap((t) => variants(t.markdown));
    const { accepted, mismatches } = acceptedAndEqual(texts);
    expect(mismatches).toEqual([]);
    // Not vacuous: most examples are read by the fast path.
    expect(accepted).toBeGreaterThan(texts.length / 2);
  });

  it('gives remark`s units on generated documents shaped like skills, and accepts most of them', () => {
    const texts = skillLike(7, 1500);
    const { accepted, mismatches } = acceptedAndEqual(texts);
    expect(mismatches).toEqual([]);
    expect(accepted).toBeGreaterThan(texts.length / 2);
  });

  it('gives remark`s units on generated corner-case documents it accepts', () => {
    const texts = [...generated(1, 1500), ...generated(2, 1500)];
    const { accepted, mismatches } = acceptedAndEqual(texts);
    expect(mismatches).toEqual([]);
    expect(accepted).toBeGreaterThan(50);
  });

  it('gives remark`s units on the fixture skills', () => {
    const root = path.join(import.meta.dirname, '..', 'fixtures');
    const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('SKILL.md')).sort();
    const texts = files.map((f) => fs.readFileSync(path.join(root, f), 'utf8'));
    const { accepted, mismatches } = acceptedAndEqual(texts);
    expect(mismatches).toEqual([]);
    expect(accepted).toBeGreaterThan(texts.length / 2);
  });

  it('reads a typical skill, CRLF line endings and all', () => {
    const skill = [
      '---',
      'name: deploy',
      'description: Deploy the app.',
      '---',
      '# Deploy',
      '',
      'Run the **release** script with `npm run release` ([docs](docs/release.md)).',
      '',
      '## Steps',
      '',
      '1. Build: `npm run build`',
      '   ```bash',
      '   npm run build',
      '   ```',
      '2. Check the [changelog][log].',
      '   - [x] tests pass',
      '   - [ ] tag pushed',
      '',
      '| step | command |',
      '|---|---|',
      '| build | `npm run build` |',
      '| test | `a \\| b` |',
      '',
      '> Never deploy on *Fridays*.',
      '',
      '[log]: CHANGELOG.md "Changes"',
      '',
    ];
    for (const eol of ['\n', '\r\n']) {
      const text = skill.join(eol);
      const got = fast(text);
      expect(got.ok).toBe(true);
      if (got.ok) expect(got.split).toEqual(reference(text));
    }
  });

  it.each([
    ['raw HTML', '<div>\nhi\n</div>\n', 'html'],
    ['an unclosed fence', '```\ncode\n', 'unclosed-fence'],
    ['a footnote', 'Text[^1].\n\n[^1]: Note.\n', 'footnote'],
    ['tab indentation', '-\tone\n', 'tab-indent'],
    ['a table right after a list item', '- item\n| a | b |\n|---|---|\n', 'delimiter-row'],
    ['a repeated definition', '[a]: /x\n\n[a]: /y\n', 'duplicate-definition'],
    ['a file opening with a thematic break', '---\n- a\n', 'frontmatter-shape'],
  ])('declines %s, and the build reads it with remark', (_what, text, reason) => {
    const got = fast(text);
    expect(got).toEqual({ ok: false, reason });
    const bodyStart = splitFrontmatter(text).frontmatter.raw.length;
    const viaBuild = unitsOfBody('x/SKILL.md', text, bodyStart, new LineIndex(text));
    expect({ units: viaBuild.units, unclosedFences: viaBuild.unclosedFences }).toEqual(reference(text));
  });

  it.each([
    ['a bare URL, www. and e-mail (GFM autolink literals)', '# Links\n\nSee https://example.com/a_(b) or www.x.org, mail a@b.co.\n\n- at <http://y.z> and https://q.io.\n'],
    ['a single-tilde strikethrough', 'a ~b~ c ~d~\n'],
    ['an unmatched emphasis delimiter', '- **a* and `code`\n'],
    ['inline HTML', 'Press <kbd>Ctrl</kbd> and `x`.\n'],
  ])('hands %s to remark, that paragraph alone, and gives remark`s units', (_what, text) => {
    const got = fast(text);
    expect(got.ok).toBe(true);
    if (got.ok) expect(got.split).toEqual(reference(text));
  });

  it('agrees with remark, or declines, on the cases a fresh-eyes review found the first version wrong on', () => {
    const found = [
      '```a b \nx\n```',
      '- [x] a\n\n[x]: /u',
      '[a\r\nb]: /u\r\n',
      '![a\r\nb](u)',
      '| a |\n|---|\n| `x\\\\|y` |',
      '[a](&#0;)',
      '```a&#00000065;\nx\n```',
      `[a]: ${'('.repeat(34)}a${')'.repeat(34)}\n`,
      '[a]: \\\n',
      '- a\n<d>',
      '- > - [x] a',
      '- [r](\n\n[r]: /u',
      '- ![r](x\n\n[r]: /u',
      '- [r][\n\n[r]: /u',
      '> ```\n>\tx\n> ```',
      '>a\nb\n    >- c',
      '- >\n      >p',
      '- a\nb|\n    --',
      '- [a\u00a0b]\n\n[a b]: /u',
      `# ${'[a '.repeat(21)}x${'](u)'.repeat(21)}`,
      '> - 1.  `code`  ~~del~~\n> > end  \n',
      '# \\www.q.r\n\n- \\www.q.r\n',
      '# www. \n\n- www. \n',
      '1.  > *em* &copy;\nfoo_bar_baz `a|b` **a* `unclosed\n  ~one~ ]\n      *em* `code` !\n',
    ];
    expect(acceptedAndEqual(found).mismatches).toEqual([]);
  });

  it('reads URLs in link destinations, titles, autolinks and code spans itself; a literal in text goes to remark', () => {
    const own = [
      'See [docs](https://example.com/a) and [mail](mailto:a@b.co "t https://x.y www.z.io").\n',
      'Use <https://example.com> or <a@b.co>, run `curl https://x.io`, and look at ![i](https://x.io/p.png).\n',
      '- [a](<https://x.io/a b>) then **[b](http://y.io/(c))**\n',
      `[a](https://x.io/${'('.repeat(31)}b${')'.repeat(31)})\n`,
    ];
    for (const text of own.flatMap(variants)) {
      const got = fast(text);
      expect(got.ok, text).toBe(true);
      if (!got.ok) continue;
      expect(got.remarkRead, text).toBe(0);
      expect(got.split, text).toEqual(reference(text));
    }
    // Where a literal could form in text, remark reads the paragraph (or the file is declined).
    const doubted = [
      'Visit https://example.com today.\n',
      'Mail a@b.co now.\n',
      '[https://x.io](y) and [www.z.io][r]\n\n[r]: /u\n',
      'a\\@b.co and h\\ttps://x.io\n',
      '[a] (https://x.io)\n',
      '[a](https://x.io\n',
      '![alt www.x.io](p.png)\n',
      '*https*://x.io and www.*x*.io\n',
    ];
    for (const text of doubted) {
      const got = fast(text);
      if (got.ok) expect(got.remarkRead, text).toBeGreaterThan(0);
    }
    // Destinations whose nesting only one parser takes as a link, and other corners: both agree or decline.
    const corners = [30, 31, 32, 33, 34, 40].map((n) => `[a](https://x.io/${'('.repeat(n)}b${')'.repeat(n)}) c\n`);
    corners.push('[a](https://x.io "t" d)\n', '[a](https://x.io\n"t")\n', '[a](https://x.io\\)b)\n', '[a](<https://x.io>b)\n', '[a](https://x.io)https://y.io\n', '[a]\n(https://x.io)\n');
    expect(acceptedAndEqual([...doubted, ...corners].flatMap(variants)).mismatches).toEqual([]);
  });

  it('agrees with remark, or lets it read, on the link syntax and literals a second review found', () => {
    const found = [
      // A backslash before a line ending or a control character inside a destination: markdown-it takes the link, micromark does not.
      'see [a](https://x.io/\\\nwww.y.io) now\n',
      '[a](https://x.io\\\tb)\n',
      '[a](https://x.io\\\u0001b)\n',
      '[a](https://x.io\\\u007fb)\n',
      '[a](<https://x.io\\\nb>)\n',
      '[a](x\\\nb)\n',
      '![a](x\\\nb)\n',
      // Autolinks micromark turns down: `!` before an email's @, DEL.
      '<a!b@c.io>\n',
      '| h |\n|---|\n| <a!b@c.io> |\n',
      '<https://x.io/\u007f>\n',
      '<ab:c\u007f>\n',
      // Literals written with an escape or an entity.
      'see www\\.x.io\n',
      'see https:\\/\\/x.io\n',
      'see WWW&period;x.io\n',
      'mail a&commat;b.co\n',
      'see http&colon;&sol;&sol;x.io\n',
      // A title in parentheses that holds one.
      '[a](b (c(d)))\n',
    ];
    const { mismatches } = acceptedAndEqual(found.flatMap(variants));
    expect(mismatches).toEqual([]);
    // Each is read by remark (or the file declined), not taken on markdown-it's word.
    for (const text of found) {
      const got = fast(text);
      if (got.ok) expect(got.remarkRead, JSON.stringify(text)).toBeGreaterThan(0);
    }
  });

  it('reads a table right under a heading or a paragraph line, as remark does', () => {
    for (const text of ['### Limits\n| Type | Limit |\n|------|-------|\n| a | `b` |\n', '**Report:**\n| a | b |\n|---|---|\n| 1 | 2 |\nafter\n']) {
      const got = fast(text);
      expect(got.ok).toBe(true);
      if (got.ok) expect(got.split).toEqual(reference(text));
    }
  });

  it('takes ~/paths as text, not as strikethrough openers it must decline', () => {
    const text = 'Copy it to ~/.claude/skills and ~/.config.\n';
    const got = fast(text);
    expect(got.ok).toBe(true);
    if (got.ok) expect(got.split).toEqual(reference(text));
  });
});
