/**
 * The fast path of the body parse (issue 22, item 2). markdown-it's block and inline parsers read
 * a SKILL.md body about ten times faster than remark (micromark with GFM), but they keep no
 * offsets and part from micromark in corners of CommonMark and GFM. This module reads
 * markdown-it's tokens back onto the source (every offset checked against the text it claims) and
 * builds the units, code blocks, inline code, links and bullets that `splitUnits` builds from
 * remark's tree, field for field. Where it cannot vouch for the result it does not guess:
 * - Inline content it doubts (a possible GFM autolink literal, raw inline HTML, a delimiter run
 *   markdown-it left unmatched where micromark could pair it, a run of three, a single-tilde
 *   strikethrough, nested emphasis markers, a stray backtick, brackets in a file with definitions,
 *   brackets nested 16 deep) is read by remark: all such contents of a file in one parse, after the
 *   file's definitions, each required to come back as one paragraph spanning it; its phrasing is
 *   then remark's own.
 * - A document with a construct on which the parsers part, or which this module does not model, is
 *   declined whole, and the caller parses it with remark as before: raw HTML blocks and lazy HTML
 *   lines in containers, footnotes, numeric character references, unclosed fences, indented code,
 *   tabs in indentation (or in a stripped fence indentation), empty list items or items opening on
 *   a blank line or with code, a list starting after a non-blank line with a number other than 1
 *   or closed by a quote line, empty block quotes, quote markers indented 4 or more, indented lines
 *   right after a quote, a quote line ending the file, link reference definitions followed by a
 *   non-blank line, repeated, holding a backslash, under a setext heading, or paragraphs that look
 *   like one, task checks markdown-it read as links, tables after a list, quote or table-like line,
 *   inside containers, followed by a non-blank line, without a real pipe or with an escaped
 *   backslash before a pipe, delimiter-row lookalikes outside tables, code spans or alt text over
 *   indented lines, nesting past 18 levels, and frontmatter that is not exactly `---` … `---` at
 *   the start (remark-frontmatter and the lenient split then disagree about where the body starts).
 * Each rule was found by comparing both parsers: on the corpora and a pool of distractor skills
 * (bench/parse-parity.ts), on every CommonMark spec example inside and outside containers, on
 * generated documents, and by an adversarial review (test/text/fast-markdown.test.ts). Declining
 * is always safe; accepting is what must be right.
 */
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import type { RuleInline } from 'markdown-it/lib/parser_inline.mjs';
import type { RuleBlock } from 'markdown-it/lib/parser_block.mjs';
import type Ruler from 'markdown-it/lib/ruler.mjs';
import type { Bullet, CodeBlock, InlineCode, Link, Unit } from '../ir/types.js';
import type { LineIndex } from './line-index.js';
import { buildUnit, isClosedFence, parseMarkdown, plainText, type SplitUnits } from './markdown.js';
import { collapse } from './collapse.js';
import type { Nodes, Paragraph, PhrasingContent } from 'mdast';

/** `remarkRead`: inline contents the fast path doubted and had remark read (benches report it). */
export type FastSplit = { readonly ok: true; readonly split: SplitUnits; readonly remarkRead: number } | { readonly ok: false; readonly reason: string };

/** A construct the fast path leaves to remark: the whole document is parsed by remark. */
class Decline extends Error {}

/** An inline reading the fast path cannot vouch for: that inline content alone is read by remark. */
class InlineDoubt extends Error {}

/** Where a token starts (and ends) in the source its inline parse read; set by the wrapped rules below. */
interface SourceSpan {
  readonly start: number;
  readonly end: number;
  /** A link or image written inline (`[a](b)`), not by reference (`[a][b]`, `[a]`). */
  readonly inline: boolean;
  /** The text the inline parse read (a paragraph's content, with container prefixes removed). */
  readonly src: string;
  /** Set when the offset is already a source offset (remark's links made from literals have none, so 0). */
  readonly absolute?: number;
}

interface DefinitionSeen {
  readonly startLine: number;
  readonly endLine: number;
  /** The definition's text with container prefixes removed, as markdown-it read it. */
  readonly str: string;
  readonly duplicate: boolean;
}

/** Per-parse scratch filled by the wrapped rules; markdown-it's rules are synchronous. */
let definitionsSeen: DefinitionSeen[] = [];

type RulerInternals<T> = { __rules__?: { name: string; fn: T }[] };

function ruleOf<T>(ruler: Ruler<T>, name: string): T | undefined {
  return (ruler as unknown as RulerInternals<T>).__rules__?.find((r) => r.name === name)?.fn;
}

function makeParser(): MarkdownIt | null {
  const md = new MarkdownIt('commonmark', { html: true }).enable(['table', 'strikethrough']);
  // mdast keeps destinations as written (escapes and references decoded); so must these.
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (text) => text;
  md.validateLink = () => true;
  // Escapes and entities stay separate tokens, so that delimiters left as text can be told from escaped ones.
  md.core.ruler.disable('text_join');
  const tokenTypes = new Set(['code_inline', 'link_open', 'image']);
  for (const name of ['link', 'image', 'backticks', 'autolink']) {
    const rule = ruleOf(md.inline.ruler, name);
    if (!rule) return null;
    const spanned: RuleInline = (state: StateInline, silent: boolean) => {
      const start = state.pos;
      const before = state.tokens.length;
      const ok = rule(state, silent);
      if (ok && !silent) {
        // Pending text is flushed first, so the rule's own token may not be the first one pushed.
        let k = before;
        while (k < state.tokens.length && !tokenTypes.has(state.tokens[k]!.type)) k++;
        const token = state.tokens[k];
        if (token) token.meta = { start, end: state.pos, inline: state.src.charCodeAt(state.pos - 1) === 0x29, src: state.src } satisfies SourceSpan;
      }
      return ok;
    };
    md.inline.ruler.at(name, spanned);
  }
  const reference = ruleOf(md.block.ruler, 'reference');
  if (!reference) return null;
  const definitions: RuleBlock = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => {
    const count = () => (state.env.references ? Object.keys(state.env.references).length : 0);
    const before = count();
    const ok = reference(state, startLine, endLine, silent);
    if (ok && !silent) definitionsSeen.push({ startLine, endLine: state.line, str: state.getLines(startLine, state.line, state.blkIndent, false).trim(), duplicate: count() === before });
    return ok;
  };
  md.block.ruler.at('reference', definitions);
  return md;
}

const md = makeParser();

/** Whether the fast path can run (false if markdown-it's internals were not as expected). */
export function fastPathAvailable(): boolean {
  return md !== null;
}

/**
 * The units of a body through markdown-it, or why the fast path declines it. Never throws: an
 * unexpected failure declines too.
 */
export function fastSplitUnits(parentPath: string, text: string, bodyStart: number, lines: LineIndex): FastSplit {
  if (!md) return { ok: false, reason: 'unavailable' };
  try {
    const { units, unclosedFences, remarkRead } = split(md, parentPath, text, bodyStart, lines);
    return { ok: true, split: { units, unclosedFences }, remarkRead };
  } catch (err) {
    return { ok: false, reason: err instanceof Decline ? err.message : `internal: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    definitionsSeen = [];
  }
}

/** micromark's classes of a delimiter run's neighbour: 1 whitespace (or none), 2 punctuation, 0 other. */
const WHITESPACE = /[\s\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;
const PUNCTUATION = /[\p{P}\p{S}]/u;
function classOf(ch: string | undefined): 0 | 1 | 2 {
  return ch === undefined || WHITESPACE.test(ch) ? 1 : PUNCTUATION.test(ch) ? 2 : 0;
}

/** A phrasing tree as mdast shapes it, as far as plain text needs it (markdown.ts plainText reads both). */
type Phrase =
  | { type: 'text'; value: string }
  | { type: 'inlineCode'; value: string; span: SourceSpan }
  | { type: 'image'; alt: string; url: string; span: SourceSpan }
  | { type: 'imageReference' }
  | { type: 'break' }
  | { type: 'empty' }
  | { type: 'strong' | 'emphasis' | 'delete' | 'linkReference'; children: Phrase[] }
  | { type: 'link'; children: Phrase[]; url: string; span: SourceSpan };
type Container = { type: 'root'; children: Phrase[] } | Extract<Phrase, { children: Phrase[] }>;

/** Inline content position → source offset. */
type OffsetMap = (pos: number) => number;

function decline(reason: string): never {
  throw new Decline(reason);
}

function doubt(reason: string): never {
  throw new InlineDoubt(reason);
}

function split(md: MarkdownIt, parentPath: string, text: string, bodyStart: number, lines: LineIndex): SplitUnits & { remarkRead: number } {
  // micromark drops a byte order mark opening the text (decodeUtf8 has removed it already in a build).
  if (text.startsWith('\uFEFF')) decline('byte-order-mark');
  const head = text.slice(0, bodyStart);
  if (bodyStart === 0 ? /^(?:---|\+\+\+)/.test(text) : !/^---\r?\n(?:[\s\S]*?\r?\n)?---(?:\r?\n|$)$/.test(head)) decline('frontmatter-shape');
  const body = text.slice(bodyStart);
  if (body.includes('\0')) decline('nul');
  if (body.includes('[^')) decline('footnote');
  // markdown-it decodes numeric character references otherwise than micromark (digit limits, invalid code points).
  if (body.includes('&#')) decline('numeric-reference');
  if (/(?:^|[\r\n])[ \t>]*>[ \t>]*$/.test(body)) decline('eof-quote-line');
  const hasCR = body.includes('\r');
  const src = hasCR ? body.replace(/\r\n?/g, '\n') : body;
  // Where a body line starts in the original text: the LineIndex ends lines where markdown-it does
  // (\n, \r\n, \r), and columns are unchanged by reading \r\n as \n.
  const bodyLine = lines.position(bodyStart).line;
  const lineStart = (l: number) => (l === 0 ? bodyStart : lines.offsetOfLine(bodyLine + l));
  const srcLines = src.split('\n');
  const lineMax = src.endsWith('\n') ? srcLines.length - 1 : srcLines.length;
  const lineEnd = (l: number) => lineStart(l) + srcLines[l]!.length;
  const lineOf = (offset: number) => lines.position(offset).line;

  definitionsSeen = [];
  const env: Record<string, unknown> = {};
  const tokens = md.parse(src, env);
  const definitions = definitionsSeen;
  const references = (env.references ?? {}) as Record<string, { href: string }>;

  checkLines(tokens, srcLines);

  // Unit boundaries: the body start, then each top-level heading's line.
  const bounds: { start: number; heading: Token | null; level: number }[] = [{ start: bodyStart, heading: null, level: 0 }];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== 'heading_open') continue;
    if (!t.markup.startsWith('#') && definitions.some((d) => d.endLine === t.map![0])) decline('definition-before-setext');
    if (t.level !== 0) continue;
    const start = Math.max(bodyStart, lineStart(t.map![0]));
    if (start > bounds[bounds.length - 1]!.start || bounds.length === 1) bounds.push({ start, heading: tokens[i + 1]!, level: Number(t.tag.slice(1)) });
  }
  const features = bounds.map(() => ({ codeBlocks: [] as CodeBlock[], inlineCode: [] as InlineCode[], links: [] as Link[], bullets: [] as Bullet[] }));
  const unitAt = (offset: number) => {
    let k = bounds.length - 1;
    while (k > 0 && bounds[k]!.start > offset) k--;
    return features[k]!;
  };

  // ---- inline content: offsets, phrasing trees, features ----

  /** Content lines of a paragraph or setext heading are suffixes of their source lines (the last one trimmed). */
  function linesMap(content: string, firstLine: number): OffsetMap {
    const starts: number[] = [];
    const bases: number[] = [];
    let at = 0;
    const parts = content.split('\n');
    parts.forEach((part, k) => {
      let line = srcLines[firstLine + k];
      if (line === undefined) decline('map-line');
      if (k === parts.length - 1) line = line.trimEnd();
      const base = line.length - part.length;
      if (base < 0 || line.slice(base) !== part) decline('map-suffix');
      starts.push(at);
      bases.push(lineStart(firstLine + k) + base);
      at += part.length + 1;
    });
    return (pos) => {
      let k = starts.length - 1;
      while (k > 0 && starts[k]! > pos) k--;
      return bases[k]! + pos - starts[k]!;
    };
  }

  function atxMap(content: string, line: number): OffsetMap {
    const s = srcLines[line]!;
    let i = s.indexOf('#');
    while (s[i] === '#') i++;
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
    if (!s.startsWith(content, i)) decline('map-atx');
    const base = lineStart(line) + i;
    return (pos) => base + pos;
  }

  /** A table row's cells as markdown-it splits them (escaped pipes lose their backslash), with offsets. */
  function rowCells(line: number): { text: string; offsets: number[] }[] {
    const s = srcLines[line]!.trimEnd();
    const from = /^(?:[ \t]*>)*[ \t]*/.exec(s)![0].length;
    const cells: number[][] = [];
    let current: number[] = [];
    let escaped = false;
    for (let p = from; p < s.length; p++) {
      const ch = s[p]!;
      if (ch === '|') {
        if (!escaped) {
          cells.push(current);
          current = [];
        } else {
          current.pop();
          current.push(p);
        }
      } else current.push(p);
      escaped = ch === '\\';
    }
    cells.push(current);
    if (cells.length && cells[0]!.length === 0) cells.shift();
    if (cells.length && cells[cells.length - 1]!.length === 0) cells.pop();
    return cells.map((c) => {
      let a = 0;
      let b = c.length;
      while (a < b && /\s/.test(s[c[a]!]!)) a++;
      while (b > a && /\s/.test(s[c[b - 1]!]!)) b--;
      const kept = c.slice(a, b);
      const offsets = kept.map((p) => lineStart(line) + p);
      offsets.push(kept.length ? offsets[offsets.length - 1]! + 1 : lineStart(line) + (c[a] ?? from));
      return { text: kept.map((p) => s[p]).join(''), offsets };
    });
  }

  /** micromark's code span value: line endings kept; one space (or line ending) off each end unless it is all spaces. */
  function codeSpanValue(token: Token): string {
    const span = token.meta as SourceSpan;
    const raw = span.src.slice(span.start + token.markup.length, span.end - token.markup.length);
    // mdast keeps a code span's line endings as the file has them; the content was read with \n.
    if (hasCR && raw.includes('\n')) doubt('code-span-line-ending');
    // A continuation line's indentation inside a code span is stripped by container rules the two parsers apply otherwise.
    if (/\n[ \t]/.test(raw)) decline('code-span-indented-line');
    return /^[ \n]/.test(raw) && /[ \n]$/.test(raw) && /[^ \n]/.test(raw) ? raw.slice(1, -1) : raw;
  }

  function neighbour(children: readonly Token[], k: number, dir: -1 | 1): string | undefined {
    for (let j = k + dir; j >= 0 && j < children.length; j += dir) {
      const t = children[j]!;
      if (t.type === 'softbreak' || t.type === 'hardbreak') return ' ';
      if (t.type === 'text' || t.type === 'text_special') {
        if (t.content === '') continue;
        return dir < 0 ? t.content[t.content.length - 1] : t.content[0];
      }
      return '!';
    }
    return undefined;
  }

  /** Delimiter runs markdown-it left as text: decline where micromark could pair them. */
  function checkLeftovers(children: readonly Token[], k: number): void {
    const s = children[k]!.content;
    if (s.includes('`')) doubt('stray-backtick');
    for (const m of s.matchAll(/\*+|_+|~+/g)) {
      const before = m.index > 0 ? s[m.index - 1] : neighbour(children, k, -1);
      const afterAt = m.index + m[0].length;
      const after = afterAt < s.length ? s[afterAt] : neighbour(children, k, 1);
      const b = classOf(before);
      const a = classOf(after);
      const left = a !== 1 && (a !== 2 || b !== 0);
      const right = b !== 1 && (b !== 2 || a !== 0);
      const ch = m[0][0];
      if (ch === '*' && (left || right)) doubt('leftover-delimiter');
      if (ch === '_' && ((left && (!right || b === 2)) || (right && (!left || a === 2)))) doubt('leftover-delimiter');
      // GFM strikethrough closes with one or two tildes after a non-space (micromark's rule); paths like ~/x only open.
      if (ch === '~' && (b === 0 || (b === 2 && a !== 0))) doubt('leftover-tilde');
    }
  }

  function checkContent(content: string): void {
    // With definitions, a failed inline link or image may become a reference in one parser and not
    // the other, and labels are folded differently (Unicode spaces): remark reads such content.
    if (definitions.length > 0 && content.includes('[')) doubt('brackets-with-definitions');
    // markdown-it stops nesting at 20 levels.
    let depth = 0;
    for (const ch of content) {
      if (ch === '[') {
        if (++depth >= 16) doubt('deep-brackets');
      } else if (ch === ']' && depth > 0) depth--;
    }
    if (/\*\*\*|___|~~~/.test(content)) doubt('delimiter-run');
    if (content.includes('~')) {
      const singles = [...content.matchAll(/(?<!~)~(?!~)/g)];
      if (singles.length >= 2 && singles.slice(1).some((m) => m.index > 0 && !/\s/.test(content[m.index - 1]!))) doubt('single-tilde');
    }
  }

  function phrasing(children: readonly Token[]): Container {
    const root: Container = { type: 'root', children: [] };
    const stack: Container[] = [root];
    const pushText = (value: string) => {
      const top = stack[stack.length - 1]!;
      const last = top.children[top.children.length - 1];
      // mdast has one text node where markdown-it has text, escapes and soft breaks side by side.
      if (last && last.type === 'text') last.value += value;
      else top.children.push({ type: 'text', value });
    };
    let previous: Token | null = null;
    const isEmphasis = (t: Token | null, suffix: string) => t !== null && (t.type === `em_${suffix}` || t.type === `strong_${suffix}`);
    for (let k = 0; k < children.length; k++) {
      const c = children[k]!;
      const top = stack[stack.length - 1]!;
      switch (c.type) {
        case 'text':
        case 'text_special':
          if (c.type === 'text') checkLeftovers(children, k);
          if (c.content !== '') pushText(c.content);
          break;
        case 'softbreak':
          pushText('\n');
          break;
        case 'hardbreak':
          top.children.push({ type: 'break' });
          break;
        case 'code_inline':
          top.children.push({ type: 'inlineCode', value: codeSpanValue(c), span: c.meta as SourceSpan });
          break;
        case 'image': {
          const span = c.meta as SourceSpan | null;
          top.children.push(span?.inline ? { type: 'image', alt: plainOfTokens(c.children ?? []), url: c.attrGet('src') ?? '', span } : { type: 'imageReference' });
          break;
        }
        case 'strong_open':
        case 'em_open':
        case 's_open':
        case 'link_open': {
          if ((c.type === 'em_open' || c.type === 'strong_open') && isEmphasis(previous, 'open')) doubt('nested-emphasis');
          let node: Container;
          if (c.type === 'link_open') {
            const span = c.meta as SourceSpan | null;
            node = c.markup === 'autolink' || span?.inline ? { type: 'link', children: [], url: c.attrGet('href') ?? '', span: span! } : { type: 'linkReference', children: [] };
          } else node = { type: c.type === 'strong_open' ? 'strong' : c.type === 'em_open' ? 'emphasis' : 'delete', children: [] };
          top.children.push(node as Phrase);
          stack.push(node);
          break;
        }
        case 'strong_close':
        case 'em_close':
        case 's_close':
        case 'link_close':
          if ((c.type === 'em_close' || c.type === 'strong_close') && isEmphasis(previous, 'close')) doubt('nested-emphasis');
          stack.pop();
          break;
        default:
          doubt(c.type === 'html_inline' ? 'html-inline' : `inline-${c.type}`);
      }
      if (!((c.type === 'text' || c.type === 'text_special') && c.content === '')) previous = c;
    }
    return root;
  }

  /** mdast-util-to-string of an image's label (alt): every descendant's text, concatenated. */
  function plainOfTokens(children: readonly Token[]): string {
    let s = '';
    for (const [k, c] of children.entries()) {
      if (c.type === 'text') checkLeftovers(children, k);
      if (c.type === 'text' || c.type === 'text_special' || c.type === 'code_inline') s += c.content;
      else if (c.type === 'softbreak' && hasCR) doubt('alt-line-ending');
      else if (c.type === 'softbreak') s += '\n';
      else if (c.type === 'image') s += plainOfTokens(c.children ?? []);
      else if (c.type === 'html_inline') doubt('html-inline');
    }
    return s;
  }

  /** splitUnits' plainText of a block whose phrasing is `tree`: its children joined with '' in a paragraph or heading, with ' ' elsewhere. */
  function plain(tree: Container, joiner: string): string {
    return tree.children.map(plainText).join(joiner);
  }

  // Links in document order, as remark's tree walk meets them: by their block's start, then in turn
  // (a link remark made from a literal has offset 0, so offsets alone do not order them).
  const linkOrder = new Map<Link, [number, number]>();
  const pushLink = (into: ReturnType<typeof unitAt>, link: Link, block: number) => {
    linkOrder.set(link, [block, linkOrder.size]);
    into.links.push(link);
  };

  function collectPhrasing(node: Container, map: OffsetMap, into: ReturnType<typeof unitAt>, block = map(0)): void {
    for (const c of node.children) {
      if (c.type === 'inlineCode') {
        const start = c.span.absolute ?? map(c.span.start);
        into.inlineCode.push({ value: c.value, start, line: lineOf(start) });
      } else if (c.type === 'link' || c.type === 'image') {
        const start = c.span.absolute ?? map(c.span.start);
        pushLink(into, { url: c.url, text: c.type === 'image' ? c.alt : collapse(plainText(c)), kind: c.type, start, line: lineOf(start) }, block);
      }
      if ('children' in c) collectPhrasing(c, map, into, block);
    }
  }

  /**
   * Inline content the fast path doubts (a possible autolink literal among others) is read by remark
   * itself, after the document's definitions (so references resolve as in the whole file); each
   * must come back as one paragraph spanning it, and its phrasing then is remark's, literals and all.
   */
  const definitionsText = definitions.map((d) => `${d.str}\n\n`).join('');
  /** Reads inline contents with remark: one document of them all, after the definitions; null if they do not come back one paragraph each. */
  function remarkRead(segments: readonly { content: string; tail: string }[]): Container[] | null {
    const starts: number[] = [];
    let doc = definitionsText;
    for (const seg of segments) {
      starts.push(doc.length);
      doc += `${seg.content}${seg.tail}\n\n`;
    }
    const tree = parseMarkdown(doc);
    const defs = tree.children.length - segments.length;
    if (defs < 0 || tree.children.slice(0, defs).some((c) => c.type !== 'definition')) return null;
    const paragraphs = tree.children.slice(defs);
    const ok = paragraphs.every((p, k) => p.type === 'paragraph' && p.position?.start.offset === starts[k] && p.position?.end.offset === starts[k]! + segments[k]!.content.length + segments[k]!.tail.length);
    return ok ? paragraphs.map((p, k) => containerOf(p as Paragraph, starts[k]!, segments[k]!.content)) : null;
  }

  function containerOf(paragraph: Paragraph, startsAt: number, content: string): Container {
    const convert = (node: PhrasingContent): Phrase => {
      const span = (n: { position?: { start: { offset?: number } } }): SourceSpan =>
        n.position?.start.offset === undefined ? { start: 0, end: 0, inline: true, src: content, absolute: 0 } : { start: n.position.start.offset - startsAt, end: 0, inline: true, src: content };
      switch (node.type) {
        case 'text':
          return { type: 'text', value: node.value };
        case 'inlineCode':
          return { type: 'inlineCode', value: node.value, span: span(node) };
        case 'image':
          return { type: 'image', alt: node.alt ?? '', url: node.url, span: span(node) };
        case 'imageReference':
          return { type: 'imageReference' };
        case 'break':
          return { type: 'break' };
        case 'link':
          return { type: 'link', url: node.url, span: span(node), children: node.children.map(convert) };
        case 'strong':
        case 'emphasis':
        case 'delete':
        case 'linkReference':
          return { type: node.type, children: node.children.map(convert) };
        case 'html':
        case 'footnoteReference':
          return { type: 'empty' };
        default:
          return decline(`reparse-${(node as { type: string }).type}`);
      }
    };
    // Inside code and alt text mdast keeps line endings as the file has them and continuation
    // indentation as the container leaves it; this content was read with \n and markdown-it's stripping.
    const stack: Nodes[] = [...paragraph.children];
    for (let n = stack.pop(); n; n = stack.pop()) {
      const kept = n.type === 'inlineCode' ? n.value : n.type === 'image' ? n.alt ?? '' : '';
      if (/\n[ \t]/.test(kept)) decline('reparse-indented-line');
      if (hasCR && kept.includes('\n')) decline('reparse-line-ending');
      if ('children' in n) stack.push(...(n.children as Nodes[]));
    }
    return { type: 'root', children: paragraph.children.map(convert) };
  }

  function remarkPhrasing(content: string, tail: string): Container {
    return remarkRead([{ content, tail }])?.[0] ?? decline('reparse');
  }
  const LITERAL = /@|www\.|https?:\/\/|mailto:|xmpp:/i;
  /**
   * Link syntax on which markdown-it is more lenient than micromark: a destination holding a line
   * ending or another control character (markdown-it lets a backslash skip any character; micromark
   * ends or refuses the destination there), an autolink holding one (markdown-it allows DEL), and an
   * email autolink with `!` before the `@` (micromark's local part does not take it).
   */
  const linkSyntaxDoubt = (children: readonly Token[]): boolean => {
    for (let k = 0; k < children.length; k++) {
      const c = children[k]!;
      if (c.type === 'link_open' && c.markup === 'autolink') {
        const literal = children[k + 1]?.type === 'text' ? children[k + 1]!.content : '';
        if (/[\x00-\x20\x7f]/.test(literal) || (!literal.includes(':') && literal.includes('!'))) return true;
      } else if (c.type === 'link_open' || c.type === 'image') {
        if (/[\x00-\x1f\x7f]/.test(c.attrGet(c.type === 'image' ? 'src' : 'href') ?? '')) return true;
        if (c.type === 'image' && linkSyntaxDoubt(c.children ?? [])) return true;
      }
    }
    return false;
  };
  /** The text of inline tokens as one string: text pieces (links' and images' labels too), breaks as line endings; no code spans, destinations, titles or autolinks. */
  const textOf = (children: readonly Token[]): string => {
    let out = '';
    let autolink = 0;
    for (const c of children) {
      if (c.type === 'link_open' && c.markup === 'autolink') autolink++;
      else if (c.type === 'link_close' && c.markup === 'autolink') autolink--;
      else if (autolink > 0) continue;
      else if (c.type === 'text' || c.type === 'text_special') out += c.content;
      else if (c.type === 'softbreak' || c.type === 'hardbreak') out += '\n';
      else if (c.type === 'image') out += textOf(c.children ?? []);
    }
    return out;
  };
  /**
   * A paragraph's trailing whitespace, which markdown-it trims and micromark keeps: a literal such
   * as `www.` ends differently with it.
   */
  const paragraphTails = new Map<Token, string>();
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open') continue;
    // micromark may read a definition where markdown-it did not (a destination nested past its limit).
    if (/^\[(?:[^\\\]]|\\.)*\]:/.test(t.content)) decline('definition-like-paragraph');
    // A lazy line that is an HTML tag ends micromark's container; markdown-it keeps it as text.
    if (tokens[i - 1]!.level > 0 && /\n[ \t]*</.test(t.content)) decline('html-lazy-line');
    const last = srcLines[t.map![1] - 1]!;
    paragraphTails.set(t, last.slice(last.trimEnd().length));
    // markdown-it also trims Unicode spaces micromark reads as text; at the start that would shift offsets.
    const single = t.map![1] - t.map![0] === 1;
    const first = single ? srcLines[t.map![0]]!.trimEnd() : srcLines[t.map![0]]!;
    const at = first.length - t.content.split('\n', 1)[0]!.length;
    if (at > 0 && /[^ \t>]/.test(first[at - 1]!) && /\s/.test(first[at - 1]!)) decline('leading-unicode-space');
  }
  /** markdown-it's phrasing of an inline content, or null where remark must read it. */
  const ownPhrasing = (content: string, children: readonly Token[]): Container | null => {
    if (linkSyntaxDoubt(children)) return null;
    // A literal can only form in text: not in a code span, a link's destination or title, or an
    // autolink, which is where most URLs of a skill stand. So the text as markdown-it reads it is
    // tested, all text pieces joined (escapes and entities resolved, the labels of links and images
    // included, breaks as line endings), so that a literal written with an escape or an entity, or
    // straddling emphasis, is still seen. Text pieces are the raw content's own characters but for
    // escapes and entities, so without those and without a literal in the raw content there is
    // none in the text. The same text holding `](` is a link markdown-it turned down where
    // micromark may take it (a title in parentheses holding one, say).
    if (LITERAL.test(content) || content.includes('](') || /[\\&]/.test(content)) {
      const text = textOf(children);
      if (LITERAL.test(text) || text.includes('](')) return null;
    }
    try {
      checkContent(content);
      return phrasing(children);
    } catch (err) {
      if (err instanceof InlineDoubt) return null;
      throw err;
    }
  };
  const phrasingOf = (content: string, children: readonly Token[], tail = ''): Container => ownPhrasing(content, children) ?? remarkPhrasing(content, tail);

  // Every inline content's phrasing up front, so that those remark must read go to it in one parse
  // (a parse per paragraph cost more than all the rest of the fast path).
  const trees = new Map<Token, Container>();
  const toRemark: Token[] = [];
  for (const t of tokens) {
    if (t.type !== 'inline') continue;
    const own = ownPhrasing(t.content, t.children ?? []);
    if (own) trees.set(t, own);
    else toRemark.push(t);
  }
  if (toRemark.length) {
    const segments = toRemark.map((t) => ({ content: t.content, tail: paragraphTails.get(t) ?? '' }));
    // Together if they come back one paragraph each, else one by one (the same test, so the same answer).
    const read = remarkRead(segments) ?? segments.map((seg) => remarkPhrasing(seg.content, seg.tail));
    toRemark.forEach((t, k) => trees.set(t, read[k]!));
  }
  const treeOf = (t: Token) => trees.get(t)!;
  /** Cells beyond the header's count: markdown-it drops them, mdast keeps them. */
  const extraCells = new Map<Token, { tree: Container; map: OffsetMap }[]>();
  const cellMaps = new Map<Token, OffsetMap>();

  // GFM task items: `[ ]`, `[x]` or `[X]` opening an item's first paragraph, then a line ending or
  // spaces and more text. mdast drops it and the one character after it from that paragraph's text,
  // wherever the text is read (an outer item reads it too), so the tree is changed here once.
  const taskChecked = new Map<Token, boolean>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    const t = tokens[i]!;
    const paragraph = tokens[i + 1]!;
    const inline = tokens[i + 2]!;
    if (t.type !== 'list_item_open' || paragraph.type !== 'paragraph_open' || paragraph.map![0] !== t.map![0] || inline.type !== 'inline') continue;
    const m = /^\[([ \t\n]|[xX])\](?:\n|[ \t]+[\s\S])/.exec(inline.content);
    if (!m) continue;
    const tree = treeOf(inline);
    const first = tree.children[0];
    // Read alone (by markdown-it, or by remark for a doubted paragraph) the check is text; were it
    // read as a reference link, the two parsers would part.
    if (first?.type !== 'text' || !first.value.startsWith(m[0].slice(0, 3))) decline('task-item-shape');
    first.value = first.value.slice(4);
    if (first.value === '') tree.children.shift();
    taskChecked.set(t, m[1] === 'x' || m[1] === 'X');
  }

  // ---- code blocks ----

  function codeRange(t: Token): { start: number; end: number } {
    if (t.type === 'code_block') decline('indented-code');
    const l0 = t.map![0];
    const start = lineStart(l0) + srcLines[l0]!.indexOf(t.markup);
    const contentLines = t.content === '' ? 0 : t.content.split('\n').length - 1;
    if (contentLines !== t.map![1] - l0 - 2 || t.map![1] > lineMax) decline('unclosed-fence');
    const last = t.map![1] - 1;
    const end = lineEnd(last);
    if (!isClosedFence(text.slice(start, end), t.markup)) decline('fence-close');
    return { start, end };
  }

  function codeValue(t: Token): string {
    const v = t.content.endsWith('\n') ? t.content.slice(0, -1) : t.content;
    if (!hasCR) return v;
    // mdast keeps the file's own line endings inside code.
    const first = t.map![0] + 1;
    const parts = v.split('\n');
    return parts.map((p, q) => p + (q < parts.length - 1 ? text.slice(lineEnd(first + q), lineStart(first + q + 1)) : '')).join('');
  }

  // ---- the block walk ----

  const lists: { ordered: boolean; start: number; k: number }[] = [];
  const markerFrom = new Map<number, number>();
  // Table cells carry no line map: they belong to the unit of the last token that does.
  let into = features[0]!;
  let quoteDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // markdown-it stops nesting blocks at 20 levels.
    if (t.level >= 18) decline('deep-nesting');
    if (t.map) into = unitAt(lineStart(t.map[0]));
    switch (t.type) {
      case 'html_block':
        decline('html');
        break;
      case 'blockquote_open':
        if (tokens[i + 1]!.type === 'blockquote_close') decline('empty-quote');
        quoteDepth++;
        break;
      case 'blockquote_close':
        quoteDepth--;
        break;
      case 'table_open': {
        const [first, after] = t.map!;
        const header = srcLines[first]!.replace(/^(?:[ \t]*>)*[ \t]*/, '');
        if (t.level > 0) decline('table-in-container');
        if (/^(?:#|>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|`|~|<)/.test(header)) decline('table-head');
        if (after < srcLines.length && srcLines[after]!.trim() !== '') decline('table-followed');
        // After a paragraph line or an ATX heading both parsers start the table; after a list, quote,
        // table-like or indented line they may not.
        if (first > 0 && /^(?:[ \t]*(?:[>|\t<]|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))| {4})/.test(srcLines[first - 1]!)) decline('table-preceded');
        if (!srcLines[first + 1]!.includes('|') || !/(?:^|[^\\])\|/.test(srcLines[first]!)) decline('table-pipes');
        // markdown-it takes \\| as an escaped pipe; micromark as an escaped backslash, then a cell break.
        for (let l = first; l < after; l++) if (srcLines[l]!.includes('\\\\|')) decline('table-backslashes');
        break;
      }
      case 'tr_open': {
        const cells = rowCells(t.map![0]);
        let c = 0;
        let last: Token | null = null;
        for (let j = i + 1; tokens[j]!.type !== 'tr_close'; j++) {
          const cellToken = tokens[j]!;
          if (cellToken.type !== 'inline') continue;
          last = cellToken;
          const cell = cells[c++];
          if (!cell) {
            if (cellToken.content !== '') decline('cell');
            cellMaps.set(cellToken, () => lineStart(t.map![0]));
            continue;
          }
          if (cell.text !== cellToken.content) decline('cell-text');
          cellMaps.set(cellToken, (pos) => cell.offsets[pos]!);
        }
        if (last && c < cells.length) {
          extraCells.set(
            last,
            cells.slice(c).map((cell) => ({ tree: phrasingOf(cell.text, md.parseInline(cell.text, env)[0]!.children ?? []), map: (pos: number) => cell.offsets[pos]! })),
          );
        }
        break;
      }
      case 'inline': {
        const opener = tokens[i - 1]!;
        const map = opener.type === 'heading_open' && opener.markup.startsWith('#') ? atxMap(t.content, t.map![0]) : cellMaps.get(t) ?? linesMap(t.content, t.map![0]);
        collectPhrasing(treeOf(t), map, into);
        for (const extra of extraCells.get(t) ?? []) collectPhrasing(extra.tree, extra.map, into);
        break;
      }
      case 'fence':
      case 'code_block': {
        const { start, end } = codeRange(t);
        // micromark keeps the meta's trailing whitespace.
        const info = t.info.replace(/^[ \t]+/, '');
        const m = /^([^ \t]+)(?:[ \t]+([\s\S]*))?$/.exec(info);
        into.codeBlocks.push({
          lang: m ? md.utils.unescapeAll(m[1]!) : null,
          meta: m && m[2] ? md.utils.unescapeAll(m[2]) : null,
          value: codeValue(t),
          fenced: true,
          closed: true,
          start,
          end,
          line: lineOf(start),
        });
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const start = Number(t.attrGet('start') ?? 1);
        if (t.type === 'ordered_list_open' && start !== 1 && t.map![0] > 0 && srcLines[t.map![0] - 1]!.trim() !== '') decline('list-start-interrupts');
        // micromark ends a list that the next quote line closes after that line's prefix.
        if (quoteDepth > 0 && t.map![1] < srcLines.length && !/^[ \t>]*$/.test(srcLines[t.map![1]]!)) decline('list-closed-in-quote');
        lists.push({ ordered: t.type === 'ordered_list_open', start, k: 0 });
        break;
      }
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open':
        into.bullets.push(bulletAt(i));
        break;
    }
  }

  function bulletAt(i: number): Bullet {
    const t = tokens[i]!;
    const next = tokens[i + 1]!;
    if (next.type === 'list_item_close' || !next.map || next.map[0] !== t.map![0]) decline('empty-item-start');
    if (next.type === 'code_block') decline('item-starts-with-code');
    const list = lists[lists.length - 1]!;
    const k = list.k++;
    const l0 = t.map![0];
    const line0 = srcLines[l0]!;
    // Several items can open on one line (`- - x`): each marker is looked for after the previous one.
    const from = markerFrom.get(l0) ?? /^(?:[ \t]*>)*[ \t]*/.exec(line0)![0].length;
    const markerAt = line0.indexOf(t.markup, from);
    if (markerAt < 0) decline('marker');
    markerFrom.set(l0, markerAt + t.markup.length);
    const start = lineStart(l0) + markerAt - (list.ordered ? t.info.length : 0);

    // The item's own blocks (not its nested lists), and where its last block ends.
    const parts: string[] = [];
    let lastLine = l0;
    let lastEnd = 0;
    const reach = (d: Token) => {
      if (d.type === 'fence' || d.type === 'code_block') lastEnd = Math.max(lastEnd, codeRange(d).end);
      else if (d.map) lastLine = Math.max(lastLine, d.map[1] - 1);
    };
    for (let j = i + 1; j < tokens.length; j++) {
      const d = tokens[j]!;
      if (d.level === t.level && d.type === 'list_item_close') break;
      reach(d);
      if ((d.type === 'bullet_list_open' || d.type === 'ordered_list_open') && d.level === t.level + 1) {
        for (let depth = 1, q = j + 1; q < tokens.length; q++) {
          const e = tokens[q]!;
          reach(e);
          if (e.type.endsWith('_list_open')) depth++;
          else if (e.type.endsWith('_list_close') && --depth === 0) {
            j = q;
            break;
          }
        }
        continue;
      }
      if (d.type === 'inline') {
        const opener = tokens[j - 1]!;
        const tree = treeOf(d);
        parts.push(plain(tree, opener.type === 'paragraph_open' || opener.type === 'heading_open' ? '' : ' '));
        for (const extra of extraCells.get(d) ?? []) parts.push(plain(extra.tree, ' '));
      } else if (d.type === 'fence' || d.type === 'code_block') {
        parts.push(codeValue(d));
      }
    }
    for (const d of definitions) {
      if (d.startLine < l0 || d.startLine >= t.map![1]) continue;
      let e = d.endLine - 1;
      while (e > d.startLine && srcLines[e]!.trim() === '') e--;
      lastLine = Math.max(lastLine, e);
    }
    while (lastLine > l0 && srcLines[lastLine]!.trim() === '') lastLine--;
    const end = Math.max(lastEnd, lineEnd(lastLine));

    const checked = taskChecked.get(t) ?? null;
    return {
      ordered: list.ordered,
      number: list.ordered ? list.start + k : null,
      depth: lists.length,
      text: collapse(parts.join(' ')),
      checked,
      start,
      end,
      line: lineOf(start),
    };
  }

  // ---- definitions ----
  for (const d of definitions) {
    if (d.duplicate) decline('duplicate-definition');
    // markdown-it lets a backslash escape a line ending in a destination; a CR file's label would read \n.
    if (d.str.includes('\\') || (hasCR && d.str.includes('\n'))) decline('definition-shape');
    if (d.endLine < srcLines.length && srcLines[d.endLine]!.trim() !== '') decline('definition-followed');
    const m = /^\[((?:[^\\\][]|\\[\s\S])*)\]:/.exec(d.str);
    if (!m) decline('definition-label');
    const ref = references[md.utils.normalizeReference(m[1]!)];
    if (!ref) decline('definition-reference');
    const line = srcLines[d.startLine]!;
    const start = lineStart(d.startLine) + line.indexOf('[', /^(?:[ \t]*>)*/.exec(line)![0].length);
    pushLink(unitAt(start), { url: ref.href, text: md.utils.unescapeAll(m[1]!), kind: 'definition', start, line: lineOf(start) }, start);
  }
  const order = (l: Link) => linkOrder.get(l)!;
  for (const f of features) f.links.sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);

  const units: Unit[] = [];
  const path: { level: number; title: string }[] = [];
  bounds.forEach(({ start, heading, level }, k) => {
    const end = k + 1 < bounds.length ? bounds[k + 1]!.start : text.length;
    let own: { title: string; level: number; path: string[] } | null = null;
    if (heading) {
      const title = collapse(plain(treeOf(heading), ''));
      while (path.length && path[path.length - 1]!.level >= level) path.pop();
      path.push({ level, title });
      own = { title, level, path: path.map((p) => p.title) };
    }
    units.push(buildUnit(parentPath, k, text, start, end, own, lineOf(start), features[k]!));
  });
  return { units, unclosedFences: [], remarkRead: toRemark.length };
}

/** Declines lines whose reading differs between the parsers whatever markdown-it made of them. */
function checkLines(tokens: readonly Token[], srcLines: readonly string[]): void {
  const inFence = new Uint8Array(srcLines.length);
  const inTable = new Uint8Array(srcLines.length);
  let quotes = false;
  for (const t of tokens) {
    if (t.type === 'fence') {
      // Inside a container or an indented fence, a tab in the stripped indentation expands otherwise.
      const stripped = t.level > 0 || /^ /.test(srcLines[t.map![0]]!);
      for (let l = t.map![0] + 1; l < t.map![1] - 1; l++) {
        inFence[l] = 1;
        if (stripped && /^[ >]*\t/.test(srcLines[l]!)) decline('tab-in-fence');
      }
    }
    if (t.type === 'table_open') for (let l = t.map![0]; l < t.map![1]; l++) inTable[l] = 1;
    if (t.type === 'blockquote_open') quotes = true;
  }
  for (let l = 0; l < srcLines.length; l++) {
    const s = srcLines[l]!;
    if (inFence[l] || s.trim() === '') continue;
    // markdown-it continues a quote at any indentation; micromark at most 3 spaces (lazy lines and list items make that differ).
    if (quotes && /^(?: {4,}|[ ]*\t)[ \t]*>/.test(s)) decline('indented-quote-marker');
    // markdown-it's table rule accepts a delimiter row without a pipe, and interrupts a lazy line with it.
    if (!inTable[l] && s.includes('|') && l + 1 < srcLines.length && !inTable[l + 1] && /-/.test(srcLines[l + 1]!) && /^[ \t>]*[-:| \t]+$/.test(srcLines[l + 1]!)) decline('delimiter-row');
    if (/^(?:[ >]|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))*\t/.test(s)) decline('tab-indent');
    if (l > 0 && /^ {0,3}>/.test(srcLines[l - 1]!) && /^(?: {4}| {0,3}\t)/.test(s)) decline('indent-after-quote');
    if (!inTable[l]) {
      const rest = s.replace(/^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))*[ \t]*/, '');
      if (rest.includes('|') && rest.includes('-') && /^[-:| \t]+$/.test(rest)) decline('delimiter-row');
    }
  }
}
