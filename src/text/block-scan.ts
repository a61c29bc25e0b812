/**
 * The bounded parse: units of a markdown body found by a line-level scan instead of the full
 * parser, for bodies the parse budget (parse-budget.ts) turned away. It keeps what the build and
 * lint need, with exact offsets: units at top-level ATX and setext headings outside code fences
 * (the same partition rule as markdown.ts: unit texts concatenate to the body), fenced code blocks
 * with their language and whether they close, inline code spans, links, images and definitions, and
 * list items. It is lenient by design: no emphasis, no HTML blocks, no indented code, no lazy
 * continuation; nested containers are read from their markers. Every step is linear in the input
 * (code spans are paired through an index of run lengths, not by rescanning), so any file is cheap.
 */
import type { Bullet, CodeBlock, InlineCode, Link, Unit } from '../ir/types.js';
import type { LineIndex } from './line-index.js';
import { fenceOpening, isFenceClose, lineRecords, measurePrefix, type FenceOpening } from './block-lines.js';
import type { SplitUnits, UnclosedFence } from './markdown.js';
import { collapse } from './collapse.js';

interface Heading {
  readonly start: number;
  readonly level: number;
  readonly title: string;
}

interface OpenFence extends FenceOpening {
  readonly start: number;
  readonly contentStart: number;
  readonly quotes: number;
  readonly column: number;
  readonly lines: string[];
}

/** Lines longer than this are not searched for inline code and links (a single 10 MB line stays linear, but is not prose). */
const MAX_INLINE_LINE = 64 * 1024;

/**
 * At most this many units, and this many code blocks, inline code spans, links and list items,
 * are recorded for one body. Memory and the size of what is emitted then stay bounded whatever the
 * file holds (2 million one-line sections once made parents.json longer than V8's longest string);
 * no real skill comes near (the corpora's largest has 232 units). Past the unit cap, the deepest
 * heading level still present stops starting units (so the outline keeps its top), and past that
 * the first headings win; past an item cap, later items are not recorded. The unit texts still
 * partition the body, so nothing of it is lost.
 */
export const MAX_SCANNED_UNITS = 2000;
export const MAX_SCANNED_ITEMS = 20_000;

export interface ScannedUnits extends SplitUnits {
  /** What the caps left out, in words (e.g. "only the first 20000 links were recorded"), or null. */
  readonly capped: string | null;
}

export function scanUnits(parentPath: string, text: string, bodyStart: number, lines: LineIndex): ScannedUnits {
  let headings: Heading[] = [];
  const codeBlocks: CodeBlock[] = [];
  const inlineCode: InlineCode[] = [];
  const links: Link[] = [];
  const bullets: Bullet[] = [];
  const unclosedFences: UnclosedFence[] = [];
  const items = new ItemCap();
  let headingsSeen = 0;
  let deepestLevel = 6;
  let deepestSeen = 0;
  const addHeading = (h: Heading): void => {
    headingsSeen++;
    deepestSeen = Math.max(deepestSeen, h.level);
    if (h.level > deepestLevel) return;
    // Units are the preamble plus one per heading kept.
    while (headings.length >= MAX_SCANNED_UNITS - 1 && deepestLevel > 1) {
      deepestLevel--;
      headings = headings.filter((x) => x.level <= deepestLevel);
    }
    if (h.level <= deepestLevel && headings.length < MAX_SCANNED_UNITS - 1) headings.push(h);
  };
  /** Marker columns of the open list levels (for a list item's depth). */
  const listColumns: number[] = [];
  let fence: OpenFence | null = null;
  let paragraph: { start: number; lines: number } | null = null;

  const finishFence = (f: OpenFence, end: number, closed: boolean): void => {
    if (!closed && items.room(unclosedFences, 'unclosed fences')) unclosedFences.push({ offset: f.start, fence: f.char.repeat(f.length) });
    if (!items.room(codeBlocks, 'code blocks')) return;
    codeBlocks.push({ lang: f.info === '' ? null : f.info.split(/[ \t]/)[0]!, meta: /[ \t]/.test(f.info) ? f.info.slice(f.info.search(/[ \t]/)).trim() : null, value: f.lines.join('\n'), fenced: true, closed, start: f.start, end, line: lines.position(f.start).line });
  };

  let lastEnd = bodyStart;
  for (const line of lineRecords(text, bodyStart)) {
    lastEnd = line.end;
    const content = text.slice(line.start, line.end);
    const prefix = measurePrefix(content);
    const rest = content.slice(prefix.length);
    if (fence) {
      const left = prefix.quoteMarkers < fence.quotes;
      if (!left && prefix.listMarkers === 0 && isFenceClose(rest, fence)) {
        finishFence(fence, line.end, true);
        fence = null;
        continue;
      }
      if (!left) {
        // The code line without its container prefix, as far as the fence's column reaches.
        fence.lines.push(stripColumns(content, fence.quotes, fence.column));
        continue;
      }
      finishFence(fence, line.start > fence.start ? previousLineEnd(text, line.start) : fence.start, false);
      fence = null;
    }
    const blank = rest.trim() === '';
    if (blank) {
      paragraph = null;
      if (prefix.quoteMarkers === 0) listColumns.length = 0;
      continue;
    }
    const opening = fenceOpening(rest);
    if (opening && (prefix.quoteMarkers + prefix.listMarkers > 0 || prefix.indent < 4 || listColumns.length > 0)) {
      fence = { ...opening, start: line.start + prefix.length, contentStart: line.next, quotes: prefix.quoteMarkers, column: prefix.contentColumn, lines: [] };
      paragraph = null;
      continue;
    }
    const topLevel = prefix.quoteMarkers === 0 && prefix.listMarkers === 0 && prefix.indent < 4;
    const atx = topLevel ? /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(rest) : null;
    if (atx) {
      addHeading({ start: line.start, level: atx[1]!.length, title: collapse(atx[2] ?? '') });
      scanInline(text, line.start + prefix.length + atx[1]!.length, line.end, lines, inlineCode, links, items);
      paragraph = null;
      listColumns.length = 0;
      continue;
    }
    const setext = topLevel && paragraph !== null && paragraph.lines > 0 ? /^(=+|-+)[ \t]*$/.exec(rest) : null;
    if (setext && paragraph) {
      addHeading({ start: paragraph.start, level: setext[1]![0] === '=' ? 1 : 2, title: collapse(text.slice(paragraph.start, line.start)) });
      paragraph = null;
      continue;
    }
    if (prefix.listMarkers > 0) {
      const column = prefix.indent + prefix.quoteMarkers * 2;
      while (listColumns.length > 0 && listColumns[listColumns.length - 1]! >= column) listColumns.pop();
      listColumns.push(column);
      const start = line.start + prefix.markerIndex;
      const task = /^\[([ xX])\][ \t]+/.exec(rest);
      if (items.room(bullets, 'list items')) bullets.push({
        ordered: prefix.orderedNumber !== null,
        number: prefix.orderedNumber,
        depth: listColumns.length + prefix.listMarkers - 1,
        text: collapse((task ? rest.slice(task[0].length) : rest).replace(/`+/g, '')),
        checked: task ? task[1] !== ' ' : null,
        start,
        end: line.end,
        line: lines.position(start).line,
      });
      paragraph = null;
    } else if (topLevel && prefix.indent === 0) {
      listColumns.length = 0;
    }
    const definition = /^\[([^\]\n]{1,999})\]:[ \t]*<?([^\s>]+)>?/.exec(rest);
    if (definition) {
      if (items.room(links, 'links')) links.push({ url: definition[2]!, text: definition[1]!, kind: 'definition', start: line.start + prefix.length, line: lines.position(line.start).line });
    } else {
      scanInline(text, line.start + prefix.length, line.end, lines, inlineCode, links, items);
    }
    if (prefix.listMarkers === 0) paragraph = paragraph ? { start: paragraph.start, lines: paragraph.lines + 1 } : { start: line.start, lines: 1 };
  }
  if (fence) finishFence(fence, lastEnd, false);
  const notes = items.dropped();
  if (headingsSeen > headings.length) notes.unshift(`${headings.length + 1} units for ${headingsSeen} headings${deepestSeen > deepestLevel ? ` (headings deeper than level ${deepestLevel} do not start units)` : ''}`);
  return { units: unitsOf(parentPath, text, bodyStart, lines, headings, { codeBlocks, inlineCode, links, bullets }), unclosedFences, capped: notes.length ? `only ${notes.join(', ')} were recorded` : null };
}

/** Counts what MAX_SCANNED_ITEMS turned away, per kind of item. */
class ItemCap {
  private readonly over = new Map<string, number>();
  /** Whether `list` may take one more item; counts the refusal otherwise. */
  room(list: readonly unknown[], kind: string): boolean {
    if (list.length < MAX_SCANNED_ITEMS) return true;
    this.over.set(kind, (this.over.get(kind) ?? 0) + 1);
    return false;
  }
  dropped(): string[] {
    return [...this.over].map(([kind, n]) => `the first ${MAX_SCANNED_ITEMS} of ${MAX_SCANNED_ITEMS + n} ${kind}`);
  }
}

function unitsOf(parentPath: string, text: string, bodyStart: number, lines: LineIndex, headings: readonly Heading[], all: { codeBlocks: CodeBlock[]; inlineCode: InlineCode[]; links: Link[]; bullets: Bullet[] }): Unit[] {
  const bounds: { start: number; heading: Heading | null }[] = [{ start: bodyStart, heading: null }];
  for (const h of headings) {
    if (h.start > bounds[bounds.length - 1]!.start || bounds.length === 1) bounds.push({ start: h.start, heading: h });
  }
  const units: Unit[] = [];
  const stack: { level: number; title: string }[] = [];
  const cursor = { codeBlocks: 0, inlineCode: 0, links: 0, bullets: 0 };
  const take = <T extends { start: number }>(list: T[], key: keyof typeof cursor, end: number): T[] => {
    const from = cursor[key];
    let to = from;
    while (to < list.length && list[to]!.start < end) to++;
    cursor[key] = to;
    return list.slice(from, to);
  };
  for (let i = 0; i < bounds.length; i++) {
    const { start, heading } = bounds[i]!;
    const end = i + 1 < bounds.length ? bounds[i + 1]!.start : text.length;
    if (heading) {
      while (stack.length && stack[stack.length - 1]!.level >= heading.level) stack.pop();
      stack.push({ level: heading.level, title: heading.title });
    }
    units.push({
      id: `${parentPath}#${i}`,
      index: i,
      kind: heading ? 'section' : 'preamble',
      heading: heading ? heading.title : null,
      headingPath: heading ? stack.map((s) => s.title) : [],
      level: heading ? heading.level : 0,
      start,
      end,
      line: lines.position(start).line,
      text: text.slice(start, end),
      codeBlocks: take(all.codeBlocks, 'codeBlocks', end),
      inlineCode: take(all.inlineCode, 'inlineCode', end),
      links: take(all.links, 'links', end),
      bullets: take(all.bullets, 'bullets', end),
    });
  }
  return units;
}

/**
 * Code spans and links of one line. Code spans pair a backtick run with the next run of the same
 * length (CommonMark's rule), found through a per-length queue so the line is read once; links are
 * `[text](url)`, `![alt](url)` and `<scheme:…>` outside code spans.
 */
function scanInline(text: string, from: number, to: number, lines: LineIndex, inlineCode: InlineCode[], links: Link[], items: ItemCap): void {
  if (to - from > MAX_INLINE_LINE) return;
  const line = text.slice(from, to);
  const runs: { at: number; length: number }[] = [];
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== '`') continue;
    let j = i;
    while (j < line.length && line[j] === '`') j++;
    runs.push({ at: i, length: j - i });
    i = j - 1;
  }
  const byLength = new Map<number, number[]>();
  runs.forEach((r, k) => {
    const list = byLength.get(r.length);
    if (list) list.push(k);
    else byLength.set(r.length, [k]);
  });
  const cursorOf = new Map<number, number>();
  const spans: [number, number][] = [];
  for (let k = 0; k < runs.length; k++) {
    const r = runs[k]!;
    const same = byLength.get(r.length)!;
    let c = cursorOf.get(r.length) ?? 0;
    while (c < same.length && same[c]! <= k) c++;
    cursorOf.set(r.length, c);
    if (c >= same.length) continue;
    const close = runs[same[c]!]!;
    let value = line.slice(r.at + r.length, close.at).replace(/\r\n|\r|\n/g, ' ');
    if (value.length > 2 && value.startsWith(' ') && value.endsWith(' ') && value.trim() !== '') value = value.slice(1, -1);
    const start = from + r.at;
    if (items.room(inlineCode, 'inline code spans')) inlineCode.push({ value, start, line: lines.position(start).line });
    spans.push([r.at, close.at + close.length]);
    k = same[c]!;
  }
  let span = 0;
  const inSpan = (i: number): boolean => {
    while (span < spans.length && spans[span]![1] <= i) span++;
    return span < spans.length && spans[span]![0] <= i;
  };
  const linkPattern = /(!?)\[([^[\]]{0,999})\]\(<?([^()\s<>]*)>?(?:[ \t]+(?:"[^"]*"|'[^']*'))?\)|<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/g;
  for (let m = linkPattern.exec(line); m; m = linkPattern.exec(line)) {
    if (spans.length > 0 && inSpan(m.index)) continue;
    const start = from + m.index;
    if (!items.room(links, 'links')) continue;
    if (m[4] !== undefined) links.push({ url: m[4], text: m[4], kind: 'link', start, line: lines.position(start).line });
    else links.push({ url: m[3]!, text: collapse(m[2]!), kind: m[1] ? 'image' : 'link', start, line: lines.position(start).line });
  }
}

/** The line without its first `quotes` block quote markers and up to `column` columns of indentation. */
function stripColumns(line: string, quotes: number, column: number): string {
  let i = 0;
  let col = 0;
  let q = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === '>' && q < quotes) {
      q++;
      i++;
      col++;
      if (line[i] === ' ') {
        i++;
        col++;
      }
      continue;
    }
    if ((c === ' ' || c === '\t') && col < column) {
      col += c === '\t' ? 4 - (col % 4) : 1;
      i++;
      continue;
    }
    break;
  }
  return line.slice(i);
}

function previousLineEnd(text: string, lineStart: number): number {
  let e = lineStart;
  if (e > 0 && text[e - 1] === '\n') e--;
  if (e > 0 && text[e - 1] === '\r') e--;
  return e;
}


