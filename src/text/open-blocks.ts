/**
 * What a cut through markdown leaves open, and the lines that close it: a fenced code block (in
 * any block quote or list item), an HTML block that only its end mark ends (a comment, `<pre>`,
 * `<script>` …) and `<details>` elements. query/hydrate.ts appends these after a truncated or full
 * bundle hit, so the note and the hits after it are not read as code or folded away.
 *
 * Most texts (96% of what the corpora dist hands out) are read by a line scan that is exact for
 * them: every fence line at column 0, no HTML block but one-line comments, no `<details>`. Any
 * other text (a fence in a list item or a quote, indented code holding backticks, HTML) is read by
 * markdown-it's CommonMark block parser, loaded only then: a line scan cannot follow list items,
 * lazy lines, HTML blocks and indented code well enough, and a wrong guess puts every later hit
 * inside code. (Loading the parser costs about 15 ms of a cold query, which has 300 ms in all.)
 */
import type MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { fenceOpening, isFenceClose, type FenceOpening } from './block-lines.js';

let parser: Promise<MarkdownIt> | undefined;

/** A CommonMark block parser: raw HTML on (an HTML block holds no fence), no inline pass. */
export function blockParser(): Promise<MarkdownIt> {
  parser ??= import('markdown-it').then(({ default: MarkdownIt }) => {
    // Nesting past markdown-it's default 20 levels is still read (past 200 it gives up: a bound on
    // the recursion a hostile text could ask for). maxNesting is an option markdown-it reads but
    // its types leave out.
    const options = { html: true, maxNesting: 200 };
    const md = new MarkdownIt('commonmark', options);
    md.core.ruler.disable(['inline', 'text_join']);
    // markdown-it takes a link reference definition for a block of its own, after which a line of
    // HTML starts an HTML block; CommonMark reads it in a paragraph, which such a line cannot
    // interrupt (and a fence can). As paragraphs they read as CommonMark does.
    md.block.ruler.disable('reference');
    return md;
  });
  return parser;
}

/**
 * What closes the blocks the first `n` lines leave open: a fence of the opener's character and
 * length, at the opener's column and inside its block quotes (a closer at column 0 would end a
 * list item and open a new fence), and one `</details>` per element opened outside code, inline
 * code and comments, and not closed. '' when none is open. A line of a CRLF text may keep its \r.
 */
export async function closersOf(lines: readonly string[], n: number): Promise<string> {
  // A lone \r ends a line too (CommonMark), though the caller split at \n only.
  const kept = lines.slice(0, Math.min(n, lines.length)).flatMap((l) => l.replace(/\r$/, '').split('\r'));
  return scannedClosers(kept) ?? parsedClosers(kept, await blockParser());
}

/** A fence line (three or more backticks or tildes) after any indentation or container markers. */
const FENCE_ANYWHERE = /^[ \t>*+\-\d.)]*(```|~~~)/;
/** A line that may open an HTML block, at the top level or in a quote or a list item: a `<` after container markers. */
const HTML_START = /^[ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*</;
/** An HTML comment opened and closed on one line (and no other opened after it): its block ends on that line. */
const ONE_LINE_COMMENT = /^ {0,3}<!--(?:(?!<!--).)*-->[ \t]*$/;

/**
 * The closers by a line scan, or null when the text is not one the scan reads exactly: a fence line
 * outside a fence that is not at column 0 (it may sit in a list item, a quote or indented code), or
 * a line that may open an HTML block (whose lines are no fences), or a `<details>` tag. Every
 * other fence line is a top-level one (a fence at column 0 ends any list item or quote before it;
 * a fence has no lazy lines), and a top-level fence ends only at its closer, at most three columns
 * in.
 */
export function scannedClosers(kept: readonly string[]): string | null {
  let fence: FenceOpening | null = null;
  for (const line of kept) {
    if (fence !== null) {
      if (isFenceClose(line.replace(/^ {0,3}/, ''), fence)) fence = null;
      continue;
    }
    const opening = fenceOpening(line);
    if (opening) {
      fence = opening;
      continue;
    }
    if (FENCE_ANYWHERE.test(line)) return null;
    if (HTML_START.test(line) && !ONE_LINE_COMMENT.test(line)) return null;
    // A `<details>` tag may be code (indented, in a list item) or not: the parser tells.
    if (/<\/?details\b/i.test(line)) return null;
  }
  return fence !== null ? `${fence.char.repeat(fence.length)}\n` : '';
}

/** The `<details>` elements left open after `line`, given `open` before it (inline code and comments masked). */
function countDetails(line: string, open: number): number {
  if (!line.toLowerCase().includes('details')) return open;
  const markup = line.replace(/<!--.*?(-->|$)/g, '').replace(/(`+)[^`]*?\1/g, '');
  return Math.max(0, open + (markup.match(/<details\b/gi) ?? []).length - (markup.match(/<\/details\s*>/gi) ?? []).length);
}

/** The closers by markdown-it's block parse. */
export function parsedClosers(kept: readonly string[], md: MarkdownIt): string {
  if (kept.length === 0) return '';
  const tokens: Token[] = md.parse(`${kept.join('\n')}\n`, {});
  /** Lines inside code (fenced or indented) or raw HTML: no `<details>` there is an element. */
  const code = new Uint8Array(kept.length);
  /** Lines where a raw HTML block ends: only the text from this column on is read for `<details>`. */
  const after = new Map<number, number>();
  let open: Token | undefined;
  let htmlCloser = '';
  for (const t of tokens) {
    if (t.type === 'html_block' && t.map) {
      // An HTML block of kinds 1 to 5 (a comment, `<pre>`, `<script>` …) is raw text to its end
      // mark, not at a blank line: no `<details>` in it is an element, and one the cut leaves open
      // gets that mark, inside the block's quote or list item.
      const [from, to] = t.map;
      const first = kept[from]!;
      const at = first.indexOf('<');
      const kind = rawKind(first.slice(at));
      const end = kind ? rawEnd(kept, from, to, at, kind) : null;
      if (end) {
        code.fill(1, from, end.line);
        // Text after the end mark on its line is read again (`<!-- a --> <details>`).
        if (end.line < to) after.set(end.line, end.column);
      }
      if (to < kept.length) continue;
      // A comment opened after the last one closed, in a block that is not an element's
      // (`<!-- a --> <!-- b`: the block ends on that line, but what renders it would read on in
      // the comment), gets its `-->`.
      const unclosed = kind !== null && end!.line >= to;
      const comment = t.content.lastIndexOf('<!--') > t.content.lastIndexOf('-->');
      const mark = kind?.close.startsWith('</') ? (unclosed ? kind.close : '') : comment ? '-->' : unclosed ? kind!.close : '';
      if (mark) htmlCloser = `${containerPrefix(first, at)}${mark}\n`;
      continue;
    }
    if ((t.type !== 'fence' && t.type !== 'code_block') || !t.map) continue;
    const [from, to] = t.map;
    code.fill(1, from, to);
    if (t.type !== 'fence') continue;
    // Lines between the fences: one fewer than the block's when it ends in a closer.
    const inner = t.content === '' ? 0 : t.content.split('\n').length - 1;
    if (to >= kept.length && inner === to - from - 1) open = t;
  }
  let details = 0;
  kept.forEach((line, i) => {
    if (!code[i]) details = countDetails(line.slice(after.get(i) ?? 0), details);
  });
  let closer = '';
  if (open) {
    const opener = kept[open.map![0]]!;
    closer = `${containerPrefix(opener, opener.indexOf(open.markup))}${open.markup}\n`;
  }
  return htmlCloser + closer + '</details>\n'.repeat(details);
}

/** What goes before a closer at column `at` of its opener: the quote markers, blanks for everything else. */
function containerPrefix(opener: string, at: number): string {
  return opener.slice(0, Math.max(0, at)).replace(/[^>\t]/g, ' ');
}

/** An HTML block of kinds 1 to 5: how it opens, and the end mark that alone ends it. */
interface RawKind {
  readonly opening: string;
  readonly close: string;
  readonly closeAt: RegExp;
}

/** The raw kind of an HTML block that starts `text` (from its `<`), or null for kinds 6 and 7. */
function rawKind(text: string): RawKind | null {
  const tag = /^<(pre|script|style|textarea)(?=[\s>]|$)/i.exec(text);
  if (tag) return { opening: tag[0], close: `</${tag[1]!.toLowerCase()}>`, closeAt: new RegExp(`</${tag[1]}>`, 'i') };
  // A comment's `-->` may follow its `<!` at once (`<!-->` is a whole comment).
  if (text.startsWith('<!--')) return { opening: '<!', close: '-->', closeAt: /-->/ };
  if (text.startsWith('<?')) return { opening: '<?', close: '?>', closeAt: /\?>/ };
  if (text.startsWith('<![CDATA[')) return { opening: '<![CDATA[', close: ']]>', closeAt: /\]\]>/ };
  if (/^<![A-Za-z]/.test(text)) return { opening: '<!', close: '>', closeAt: />/ };
  return null;
}

/**
 * Where the raw HTML block of `kind` on lines [from, to), opened at column `at` of its first line,
 * ends: the line holding its end mark and the column after the mark; line `to` when the lines do
 * not hold it (the cut left it open).
 */
function rawEnd(kept: readonly string[], from: number, to: number, at: number, kind: RawKind): { line: number; column: number } {
  for (let i = from; i < to; i++) {
    const offset = i === from ? at + kind.opening.length : 0;
    const m = kind.closeAt.exec(kept[i]!.slice(offset));
    if (m) return { line: i, column: offset + m.index + m[0].length };
  }
  return { line: to, column: 0 };
}
