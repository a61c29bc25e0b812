/**
 * Markdown structure of a SKILL.md body: the remark parse (frontmatter + GFM, positions kept) and
 * the split into procedural units. Units partition the text after the frontmatter exactly: unit 0
 * is the preamble, and every top-level heading starts a new unit at the start of its line, so the
 * concatenation of unit texts is the body, byte for byte. Headings nested in lists or block quotes
 * do not split (that would cut a container in two).
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import type { Processor } from 'unified';
import type { Root, Nodes, Heading, Code, ListItem, List } from 'mdast';
import type { Bullet, CodeBlock, InlineCode, Link, Unit } from '../ir/types.js';
import { LineIndex } from './line-index.js';
import { collapse } from './collapse.js';
import { assessParseBudget, type ParseBound } from './parse-budget.js';
import { scanUnits } from './block-scan.js';
import { fastSplitUnits } from './fast-markdown.js';
import { fenceOpening } from './block-lines.js';

/** mdast-util-gfm-autolink-literal's transform: www., http(s)://, email, mailto: and xmpp: literals in text become links. */
const autolinkLiterals = gfmAutolinkLiteralFromMarkdown().transforms![0]!;

/**
 * GFM's mdast extensions as remark-gfm registers them, except that the autolink-literal transform
 * is left to `linkLiterals` below, which runs it only where it can change something. Were
 * mdast-util-gfm to resolve another copy of that transform (or add others), the extensions are
 * kept as they are and the tree is remark-gfm's the slow way.
 */
const gfmExtensions = gfmFromMarkdown();
const runsLiterals = (e: (typeof gfmExtensions)[number]) => e.transforms?.length === 1 && e.transforms[0] === autolinkLiterals;
const scopedLiterals = gfmExtensions.some(runsLiterals);
const gfmMdastExtensions = gfmExtensions.map((e) => (runsLiterals(e) ? { ...e, transforms: [] } : e));

/** Whether the autolink-literal transform runs per block (else within the parse, as remark-gfm runs it). */
export function literalsScoped(): boolean {
  return scopedLiterals;
}

/** remark-gfm's parsing half: the same micromark and mdast extensions. */
function remarkGfmParse(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(gfm());
  (data.fromMarkdownExtensions ??= []).push(gfmMdastExtensions);
}

const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfmParse).freeze();

/**
 * The autolink-literal transform, run on each top-level block that has a text node where one of
 * its patterns could match, instead of on the whole tree: it walks the tree four times (once per
 * pattern), about a tenth of the parse, and most blocks hold no literal. Each text node is
 * rewritten from its own value alone (the patterns look at nothing outside it), so the tree is
 * the one remark-gfm gives (test/text/markdown.test.ts; every file of the corpora compared).
 * Every pattern needs `@`, `www.` or `http(s)://` in the text; text inside a link is never touched.
 */
function linkLiterals(tree: Root): void {
  if (!scopedLiterals) return;
  for (const block of tree.children) if (mayHoldLiteral(block)) autolinkLiterals(block as never);
}

function mayHoldLiteral(block: Nodes): boolean {
  const stack: Nodes[] = [block];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'text') {
      if (node.value.includes('@') || /https?:\/\/|www\./i.test(node.value)) return true;
    } else if (node.type !== 'link' && node.type !== 'linkReference' && 'children' in node) {
      for (const child of node.children as Nodes[]) stack.push(child);
    }
  }
  return false;
}

/**
 * CommonMark without the GFM extensions: the same fences, headings, code and links (GFM adds
 * tables, autolink literals, footnotes, strikethrough and task lists), about 30% faster. Lint
 * uses it, since none of its rules look at what GFM adds.
 */
const commonmark = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).freeze();

export function parseMarkdown(text: string, options: { gfm?: boolean } = {}): Root {
  if (options.gfm === false) return commonmark.parse(text);
  const tree = processor.parse(text);
  linkLiterals(tree);
  return tree;
}

export interface UnclosedFence {
  readonly offset: number;
  readonly fence: string;
}

/**
 * What an unclosed fence does to the text after it, for its diagnostic: a fence at the top level
 * runs to the end of the file; one inside a list item or a quote ends where that container ends
 * (CommonMark), so the headings after it are still read.
 */
export function unclosedFenceEffect(f: UnclosedFence, units: readonly Unit[], text: string, lines: LineIndex): string {
  const blocks = units.flatMap((u) => u.codeBlocks);
  const block = blocks.find((c) => c.start === f.offset);
  const last = text.trimEnd().length;
  if (block && block.end < last) return `the block ends where its list item or quote ends, at line ${lines.position(Math.max(block.start, block.end - 1)).line}, not at a closing fence`;
  const opener = swallowedOpener(f, blocks, text);
  if (opener !== null) {
    return `the rest of the file is read as code. The fence line at line ${lines.position(opener).line} is in no code block (an HTML block took it: an HTML block needs a blank line before a fence), so the fences after it pair the wrong way`;
  }
  return 'the rest of the file is read as code';
}

/**
 * When the unclosed fence is a bare one (no info string, as a closer is), the nearest fence line of
 * its character above it, at most three columns in, that opened no code block and lies in none: a
 * line an HTML block took (a fence interrupts a paragraph, not an HTML block), after which every
 * fence below closes what the author opened and opens what they closed. Else null.
 */
function swallowedOpener(f: UnclosedFence, blocks: readonly CodeBlock[], text: string): number | null {
  const lineEnd = text.indexOf('\n', f.offset);
  const own = fenceOpening(text.slice(f.offset, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, ''));
  if (!own || own.info !== '') return null;
  const fenceLine = (line: string) => fenceOpening(line.replace(/\r$/, '').replace(/^ {0,3}/, ''))?.char === own.char;
  // Code blocks do not overlap: the one a line may lie in is the last to start at or before it,
  // found by a cursor that moves up with the lines (one pass, however many blocks).
  const sorted = [...blocks].sort((a, b) => a.start - b.start);
  let j = sorted.length - 1;
  let end = text.lastIndexOf('\n', f.offset - 1);
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    while (j >= 0 && sorted[j]!.start > start) j--;
    if (fenceLine(text.slice(start, end)) && !(j >= 0 && start < sorted[j]!.end)) return start;
    end = start - 1;
  }
  return null;
}

export interface SplitUnits {
  readonly units: Unit[];
  readonly unclosedFences: UnclosedFence[];
}

export interface BodyUnits extends SplitUnits {
  /** Set when the body was over the parse budget and split by the line-level scan instead. */
  readonly bounded: ParseBound | null;
}

/**
 * The units of a SKILL.md body: the full parse when the body is within the parse budget (see
 * parse-budget.ts), else the bounded line-level scan, so that no input makes the parse slow or
 * overflow the stack.
 */
export function unitsOfBody(parentPath: string, text: string, bodyStart: number, lines: LineIndex, options: { gfm?: boolean } = {}): BodyUnits {
  const bounded = assessParseBudget(text, bodyStart, options);
  if (bounded) {
    const { units, unclosedFences, capped } = scanUnits(parentPath, text, bodyStart, lines);
    return { units, unclosedFences, bounded: capped ? { ...bounded, detail: `${bounded.detail}; ${capped}` } : bounded };
  }
  // markdown-it's fast path gives the same units for the documents it accepts (fast-markdown.ts).
  if (options.gfm !== false) {
    const fast = fastSplitUnits(parentPath, text, bodyStart, lines);
    if (fast.ok) return { ...fast.split, bounded: null };
  }
  return { ...splitUnits(parentPath, text, bodyStart, parseMarkdown(text, options), lines), bounded: null };
}

/**
 * @param text the whole decoded file
 * @param bodyStart where the body begins (the frontmatter's raw length)
 */
export function splitUnits(parentPath: string, text: string, bodyStart: number, tree: Root, lines: LineIndex): SplitUnits {
  const children = tree.children.filter((n) => startOf(n) >= bodyStart && n.type !== 'yaml');
  const headings = children.filter((n): n is Heading => n.type === 'heading');

  // Unit boundaries: the body start, then the start of each heading's line.
  const bounds: { start: number; heading: Heading | null }[] = [{ start: bodyStart, heading: null }];
  for (const h of headings) {
    const start = Math.max(bodyStart, lines.lineStart(startOf(h)));
    if (start > bounds[bounds.length - 1]!.start || bounds.length === 1) bounds.push({ start, heading: h });
  }
  // A heading on the body's very first line leaves an empty preamble: keep it (unit 0 is always the preamble).

  const units: Unit[] = [];
  const stack: { level: number; title: string }[] = [];
  const unclosedFences: UnclosedFence[] = [];
  let childIdx = 0;
  for (let i = 0; i < bounds.length; i++) {
    const { start, heading } = bounds[i]!;
    const end = i + 1 < bounds.length ? bounds[i + 1]!.start : text.length;
    let own: { title: string; level: number; path: string[] } | null = null;
    if (heading) {
      const level = heading.depth;
      const title = collapse(plainText(heading));
      while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, title });
      own = { title, level, path: stack.map((s) => s.title) };
    }
    const features = emptyFeatures();
    while (childIdx < children.length && startOf(children[childIdx]!) < end) {
      collect(children[childIdx]!, features, text, lines, unclosedFences, 0);
      childIdx++;
    }
    units.push(buildUnit(parentPath, i, text, start, end, own, lines.position(start).line, features));
  }
  return { units, unclosedFences };
}

/** A unit from its bounds, its heading (title, level, the enclosing titles) and its features; both parsers build units with it. */
export function buildUnit(parentPath: string, index: number, text: string, start: number, end: number, heading: { title: string; level: number; path: string[] } | null, line: number, features: Features): Unit {
  return {
    id: `${parentPath}#${index}`,
    index,
    kind: heading ? 'section' : 'preamble',
    heading: heading ? heading.title : null,
    headingPath: heading ? heading.path : [],
    level: heading ? heading.level : 0,
    start,
    end,
    line,
    text: text.slice(start, end),
    ...features,
  };
}

export interface Features {
  codeBlocks: CodeBlock[];
  inlineCode: InlineCode[];
  links: Link[];
  bullets: Bullet[];
}

function emptyFeatures(): Features {
  return { codeBlocks: [], inlineCode: [], links: [], bullets: [] };
}

function collect(node: Nodes, f: Features, text: string, lines: LineIndex, unclosed: UnclosedFence[], listDepth: number): void {
  switch (node.type) {
    case 'code': {
      const start = startOf(node);
      const end = endOf(node);
      const fence = openingFence(text, start);
      const closed = fence === null || isClosedFence(text.slice(start, end), fence);
      if (!closed) unclosed.push({ offset: start, fence: fence! });
      f.codeBlocks.push(codeBlock(node, fence !== null, closed, start, end, lines));
      return;
    }
    case 'inlineCode':
      f.inlineCode.push({ value: node.value, start: startOf(node), line: lines.position(startOf(node)).line });
      return;
    case 'link':
    case 'image':
    case 'definition': {
      const label = node.type === 'image' ? node.alt ?? '' : node.type === 'definition' ? node.label ?? node.identifier : collapse(plainText(node));
      f.links.push({ url: node.url, text: label, kind: node.type, start: startOf(node), line: lines.position(startOf(node)).line });
      break;
    }
    case 'list': {
      const list = node as List;
      list.children.forEach((item, k) => {
        f.bullets.push(bullet(list, item, k, listDepth + 1, lines));
        for (const c of item.children) collect(c, f, text, lines, unclosed, listDepth + 1);
      });
      return;
    }
    default:
      break;
  }
  if ('children' in node) for (const c of node.children as Nodes[]) collect(c, f, text, lines, unclosed, listDepth);
}

function codeBlock(node: Code, fenced: boolean, closed: boolean, start: number, end: number, lines: LineIndex): CodeBlock {
  return { lang: node.lang ?? null, meta: node.meta ?? null, value: node.value, fenced, closed, start, end, line: lines.position(start).line };
}

function bullet(list: List, item: ListItem, k: number, depth: number, lines: LineIndex): Bullet {
  const own = item.children.filter((c) => c.type !== 'list');
  const start = startOf(item);
  return {
    ordered: list.ordered === true,
    number: list.ordered ? (list.start ?? 1) + k : null,
    depth,
    text: collapse(own.map(plainText).join(' ')),
    checked: item.checked ?? null,
    start,
    end: endOf(item),
    line: lines.position(start).line,
  };
}

/** The fence string (``` or ~~~, possibly longer) opening a code node, or null for indented code. */
function openingFence(text: string, start: number): string | null {
  const m = /^(`{3,}|~{3,})/.exec(text.slice(start, start + 64));
  return m ? m[1]! : null;
}

/** A fenced block is closed when its last line is a fence of the same character, at least as long. */
export function isClosedFence(raw: string, fence: string): boolean {
  if (!/[\r\n]/.test(raw)) return false;
  const last = raw.slice(Math.max(raw.lastIndexOf('\n'), raw.lastIndexOf('\r')) + 1);
  // Inside containers the closing line carries their prefixes ("> ", indentation).
  const stripped = last.replace(/^[\s>]*/, '').replace(/\s+$/, '');
  const ch = fence[0]!;
  return stripped.length >= fence.length && [...stripped].every((c) => c === ch);
}

/** A node as plainText reads it: mdast's, or the fast path's phrasing tree, which has mdast's shape (fast-markdown.ts). */
export interface PlainNode {
  readonly type: string;
  readonly value?: unknown;
  readonly alt?: string | null;
  readonly children?: readonly PlainNode[];
}

/** A node's text: a value as it is, an image's alt, children joined ('' in a paragraph or heading, ' ' elsewhere). */
export function plainText(node: PlainNode): string {
  if (typeof node.value === 'string' && node.type !== 'yaml' && node.type !== 'html') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  if (node.children) return node.children.map(plainText).join(node.type === 'paragraph' || node.type === 'heading' ? '' : ' ');
  return '';
}


function startOf(n: Nodes): number {
  return n.position?.start.offset ?? 0;
}

function endOf(n: Nodes): number {
  return n.position?.end.offset ?? 0;
}
