/**
 * What a cut through markdown leaves open, and the lines that close it: a fenced code block (in
 * any block quote or list item) and `<details>` elements. query/hydrate.ts appends these after a
 * truncated or full bundle hit, so the note and the hits after it are not read as code or folded
 * away.
 *
 * Most texts are read by a line scan that is exact for them: every fence line at column 0 and no
 * HTML block (a single-line comment aside). Any other text (a fence in a list item or a quote,
 * indented code holding backticks, an HTML block) is read by markdown-it's CommonMark block parser,
 * loaded only then: a line scan cannot follow list items, lazy lines, HTML blocks and indented code
 * well enough, and a wrong guess puts every later hit inside code. (Loading the parser costs about
 * 20 ms of a cold query, which has 300 ms in all.)
 */
import type MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { fenceOpening, isFenceClose, type FenceOpening } from './block-lines.js';

let parser: Promise<MarkdownIt> | undefined;

/** A CommonMark block parser: raw HTML on (an HTML block holds no fence), no inline pass. */
export function blockParser(): Promise<MarkdownIt> {
  parser ??= import('markdown-it').then(({ default: MarkdownIt }) => {
    // Nesting past markdown-it's default 20 levels is still read (past 200 it gives up: a bound on
    // the recursion a hostile text could ask for).
    // (maxNesting is an option markdown-it reads but its types leave out.)
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
/** A top-level line that may open an HTML block: a `<` after at most three spaces. */
const HTML_START = /^ {0,3}</;
/** An HTML comment opened and closed on one line: its block ends on that line. */
const ONE_LINE_COMMENT = /^ {0,3}<!--.*-->[ \t]*$/;

/**
 * The closers by a line scan, or null when the text is not one the scan reads exactly: a fence line
 * outside a fence that is not at column 0 (it may sit in a list item, a quote or indented code), or
 * a line that may open an HTML block (whose lines are no fences), or a `<details>` tag. Every other fence line is a
 * top-level one (a fence at column 0 ends any list item or quote before it; a fence has no lazy
 * lines), and a top-level fence ends only at its closer, at most three columns in.
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
  /** Lines inside code (fenced or indented): no `<details>` there is an element. */
  const code = new Uint8Array(kept.length);
  let open: Token | undefined;
  let htmlCloser = '';
  for (const t of tokens) {
    // An HTML block of kinds 1 to 5 (a comment, `<pre>`, `<script>` …) ends only at its end mark,
    // not at a blank line: one the cut leaves open gets that mark.
    if (t.type === 'html_block' && t.map && t.map[1] >= kept.length) htmlCloser = htmlBlockCloser(t.content);
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
    if (!code[i]) details = countDetails(line, details);
  });
  let closer = '';
  if (open) {
    const opener = kept[open.map![0]]!;
    const at = opener.indexOf(open.markup);
    // Quote markers stay; list markers and other characters become blanks of the same width.
    closer = `${opener.slice(0, Math.max(0, at)).replace(/[^>\t]/g, ' ')}${open.markup}\n`;
  }
  return htmlCloser + closer + '</details>\n'.repeat(details);
}

/** The end mark an HTML block of kinds 1 to 5 still lacks ('' for other kinds, or when it has it). */
function htmlBlockCloser(content: string): string {
  const start = content.trimStart();
  const raw = /^<(pre|script|style|textarea)(?=[\s>]|$)/i.exec(start);
  if (raw) return new RegExp(`</${raw[1]}>`, 'i').test(start) ? '' : `</${raw[1]!.toLowerCase()}>\n`;
  const marks: [string, string][] = [['<!--', '-->'], ['<?', '?>'], ['<![CDATA[', ']]>'], ['<!', '>']];
  for (const [open, close] of marks) if (start.startsWith(open)) return start.includes(close, open.length) ? '' : `${close}\n`;
  return '';
}
