/**
 * parse-budget: the body is within what the full markdown parser is given.
 */
import { NO_OPTIONS } from './helpers.js';
import type { LintRule } from '../types.js';

export const parseBudget: LintRule = {
  meta: {
    id: 'parse-budget',
    category: 'content',
    summary: 'the body is small and shallow enough for the full markdown parser',
    doc: 'On some shapes of markdown the parser\'s work grows with the square of the file: thousands of separate lists or block quotes, containers nested dozens of levels deep, or a paragraph packed with emphasis and link delimiters; a body over 512 KiB is also too large. skillc estimates that cost with a linear scan before parsing and, above its budget, reads the body with a line-level scan instead (headings, fences, links and list items, with exact positions), so lint and build stay fast on any file. The other rules then see that lenient reading, and `skillc build` copies the skill through without mining it. The message says which budget was exceeded and where. Split the skill, move detail to references/, or flatten the structure.',
    defaultLevel: 'warn',
    fixable: false,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const bound = ctx.subject.parent.bounded;
    if (bound) ctx.report({ offset: bound.offset, message: `markdown read by the line-level scan, not the full parser: ${bound.detail}` });
  },
};
