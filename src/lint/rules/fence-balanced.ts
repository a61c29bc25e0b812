/**
 * fence-balanced: every fenced code block is closed.
 */
import { NO_OPTIONS } from './helpers.js';
import { unclosedFenceEffect } from '../../text/markdown.js';
import type { LintRule } from '../types.js';

export const fenceBalanced: LintRule = {
  meta: {
    id: 'fence-balanced',
    category: 'content',
    summary: 'every code fence is closed',
    doc: 'A code fence (``` or ~~~) that is never closed turns the rest of the file into code: later headings, steps and links disappear for agents and for `skillc build`, which cuts a skill into sections at its headings. Inside a list item or a quote the block ends with that container instead, which renderers do not all agree on. Close the block with a line holding the same fence (at least as many backticks or tildes as opened it).',
    defaultLevel: 'error',
    fixable: false,
    ...NO_OPTIONS,
  },
  check(ctx) {
    for (const f of ctx.subject.unclosedFences) {
      const { parent, text, lines } = ctx.subject;
      ctx.report({ offset: f.offset, endOffset: f.offset + f.fence.length, message: `code fence ${f.fence} opened here is never closed: ${unclosedFenceEffect(f, parent.units, text, lines)}` });
    }
  },
};
