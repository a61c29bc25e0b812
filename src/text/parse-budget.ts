/**
 * Decides, before the full markdown parse, whether a body is safe to hand to micromark. On most
 * input micromark's work grows with the file, but on some shapes it grows with the square of it
 * (measured with micromark 4.0.3, see BENCHMARKS.md "Bounded parsing"):
 * - every top-level list or block quote that closes re-copies the document's whole event list, so
 *   10,000 short lists separated by paragraphs took minutes;
 * - nesting costs per level and per line, and thousands of levels overflow the stack;
 * - emphasis, link and code-span delimiters are matched pairwise within one paragraph, so a 16 KB
 *   paragraph of unmatched `*a_` took a second and a deeply nested one overflowed the stack.
 * A linear line scan estimates each of these costs (upper bounds, so it errs towards the bounded
 * path) and compares them with fixed budgets. The decision depends on the text alone, never on the
 * clock, so the same file is parsed the same way on every machine and the build stays deterministic.
 * A bounded body is split by the line-level scan in block-scan.ts instead.
 */
import { addDelimiters, emptyDelimiters, fenceOpening, inlineWork, isFenceClose, lineRecords, measurePrefix, type FenceOpening, type InlineDelimiters } from './block-lines.js';

/** Bodies larger than this are never given to the full parser (ordinary markdown: about 0.7 s of micromark). */
export const MAX_FULL_PARSE_CHARS = 256 * 1024;
/** Container nesting (block quotes and list levels) beyond this is bounded; real skills use a handful. */
export const MAX_NESTING = 32;
/**
 * Budget of Σ (offset of each top-level container opening): the event list micromark re-copies when
 * that container closes. 2.5e7 is about 0.35 s of copying (measured: 2,000 lists, Σ 5.6e7, 0.8 s).
 */
export const CONTAINER_BUDGET = 2.5e7;
/** Budget of Σ over paragraphs of inlineWork (block-lines.ts): about 0.25 s of pairwise matching. */
export const INLINE_BUDGET = 4e6;

export type BoundReason = 'size' | 'nesting' | 'containers' | 'inline';

export interface ParseBound {
  readonly reason: BoundReason;
  /** Where the budget was first exceeded (an index into the whole text). */
  readonly offset: number;
  /** One sentence for the diagnostic. */
  readonly detail: string;
}

export interface BudgetOptions {
  /** GFM tables split paragraphs into cells (each matched on its own); CommonMark reads them as one paragraph. */
  readonly gfm?: boolean;
}

/** The estimates of one body, and where each budget was first exceeded (null: never). */
export interface ParseCost {
  readonly chars: number;
  readonly maxDepth: number;
  readonly containers: number;
  readonly containerCost: number;
  readonly inlineCost: number;
  readonly over: { readonly nesting: ParseBound | null; readonly containers: ParseBound | null; readonly inline: ParseBound | null };
}

/** null when the full parse is within budget, else why not and where (the earliest excess wins). */
export function assessParseBudget(text: string, bodyStart: number, options: BudgetOptions = {}): ParseBound | null {
  const size = text.length - bodyStart;
  // Past the size limit nothing more is parsed in full, so only the text before it is measured.
  const sizeOffset = size > MAX_FULL_PARSE_CHARS ? lineStartBefore(text, bodyStart + MAX_FULL_PARSE_CHARS) : text.length;
  const { over } = measureParseCost(text.slice(0, sizeOffset), bodyStart, options);
  const found = [over.nesting, over.containers, over.inline].filter((b): b is ParseBound => b !== null);
  if (size > MAX_FULL_PARSE_CHARS) {
    found.push({ reason: 'size', offset: sizeOffset, detail: `the body is ${size} characters, over the ${MAX_FULL_PARSE_CHARS} the full markdown parser is given (this line is past that)` });
  }
  return found.sort((a, b) => a.offset - b.offset)[0] ?? null;
}

/** Start of the line holding `offset` (any line ending). */
function lineStartBefore(text: string, offset: number): number {
  for (let i = offset - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return 0;
}

/** One linear pass over the body's lines; also used by bench/parse-budget to check the budgets on real libraries. */
export function measureParseCost(text: string, bodyStart: number, options: BudgetOptions = {}): ParseCost {
  const gfm = options.gfm !== false;
  let fence: OpenFence | null = null;
  let inContainer = false;
  let previousText = false;
  /** Content columns of the list items this line may sit in (CommonMark's open containers, for nesting). */
  const listStack: number[] = [];
  /** Content column of the last list item seen while inside a container (fences there may be indented to it). */
  let listContent = 0;
  let maxDepth = 0;
  let containerCost = 0;
  let containers = 0;
  let inlineCost = 0;
  let overNesting: ParseBound | null = null;
  let overContainers: ParseBound | null = null;
  let overInline: ParseBound | null = null;
  let paragraph: { start: number; delimiters: InlineDelimiters } | null = null;

  const addInline = (start: number, d: InlineDelimiters): void => {
    inlineCost += inlineWork(d);
    if (inlineCost > INLINE_BUDGET && !overInline) {
      overInline = { reason: 'inline', offset: start, detail: `a paragraph of ${d.length} characters holds ${d.emphasis} emphasis delimiter runs, ${d.brackets} brackets and ${d.ticks.length} backtick runs, whose pairwise matching takes the parser over its budget` };
    }
  };
  const closeParagraph = (): void => {
    const p = paragraph;
    paragraph = null;
    if (p) addInline(p.start, p.delimiters);
  };

  for (const line of lineRecords(text, bodyStart)) {
    const content = text.slice(line.start, line.end);
    const prefix = measurePrefix(content);
    const rest = content.slice(prefix.length);
    const blank = rest.trim() === '';
    if (fence) {
      // The fence ends at its closing line, or where its container ends (a line outside the block
      // quote, or less indented than the list item's content), as micromark ends it.
      const left = prefix.quoteMarkers < fence.quotes || (!blank && prefix.indent < fence.containerColumn && prefix.quoteMarkers === fence.quotes);
      if (!left) {
        if (prefix.listMarkers === 0 && isFenceClose(rest, fence)) fence = null;
        continue;
      }
      fence = null;
    }
    // Nesting: a list item stays open for lines indented to its content, for blank lines, and for
    // lazy continuation text right after paragraph text; a less indented line closes it.
    if (!blank && !(previousText && prefix.listMarkers === 0)) {
      while (listStack.length > 0 && listStack[listStack.length - 1]! > prefix.indent) listStack.pop();
    }
    listStack.push(...prefix.listContentColumns);
    const depth = prefix.quoteMarkers + listStack.length;
    if (depth > maxDepth) maxDepth = depth;
    if (depth > MAX_NESTING && !overNesting) {
      overNesting = { reason: 'nesting', offset: line.start, detail: `this line is nested ${depth} containers deep (block quotes and list levels), over the limit of ${MAX_NESTING}` };
    }

    // Top-level containers: a line opening a block quote or list at the left margin after flow that
    // was not inside one (a line right after a container's text may be its lazy continuation).
    const opensContainer: boolean = prefix.quoteMarkers + prefix.listMarkers > 0;
    if (opensContainer && !inContainer && prefix.indent < 4) {
      containerCost += line.start - bodyStart;
      containers++;
      if (containerCost > CONTAINER_BUDGET && !overContainers) {
        overContainers = { reason: 'containers', offset: line.start, detail: `${containers} separate lists and block quotes, each of whose closing costs the parser a copy of everything before it, take it over its budget` };
      }
    }
    if (opensContainer || (!blank && prefix.indent >= 2)) inContainer = true;
    else if (!blank && !(previousText && inContainer)) inContainer = false;
    if (prefix.listMarkers > 0) listContent = prefix.contentColumn;
    else if (!inContainer) listContent = 0;

    const containerColumn: number = opensContainer ? prefix.contentColumn : inContainer && prefix.indent >= listContent ? listContent : 0;
    const opening: FenceOpening | null = opensContainer || prefix.indent - containerColumn <= 3 ? fenceOpening(rest) : null;
    if (opening) {
      fence = { ...opening, quotes: prefix.quoteMarkers, containerColumn };
      closeParagraph();
      previousText = false;
      continue;
    }
    if (blank) {
      closeParagraph();
      previousText = false;
      continue;
    }
    const singleLine = /^#{1,6}(?:[ \t]|$)/.test(rest) || /^(?:[-*_][ \t]*){3,}$/.test(rest) || (gfm && rest.startsWith('|'));
    if (singleLine || prefix.listMarkers > 0) closeParagraph();
    if (singleLine) {
      // A heading, a rule or a table row: its inline content is matched on its own.
      const own = emptyDelimiters();
      addDelimiters(own, rest, gfm);
      addInline(line.start, own);
    } else {
      paragraph ??= { start: line.start, delimiters: emptyDelimiters() };
      addDelimiters(paragraph.delimiters, rest, gfm);
    }
    previousText = !singleLine;
  }
  closeParagraph();
  return { chars: text.length - bodyStart, maxDepth, containers, containerCost, inlineCost, over: { nesting: overNesting, containers: overContainers, inline: overInline } };
}

interface OpenFence extends FenceOpening {
  /** Block quote markers on the opening line: fewer on a later line end the block. */
  readonly quotes: number;
  /** Column of the list item content the fence sits in (0 at top level). */
  readonly containerColumn: number;
}
