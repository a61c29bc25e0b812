/**
 * allowed-tools-string: `allowed-tools` is written as the specification's space-delimited string.
 *
 * The fix's intended change: the value at allowed-tools, a list, becomes the string of its items
 * joined by spaces; declared as a DataChange so the engine checks exactly that. Offered only when
 * every item is a string: joining would turn a null, number or boolean item into its spelling.
 */
import type { LintRule } from '../types.js';
import { NO_OPTIONS, plainSafe, trimLineBreaks } from './helpers.js';

export const allowedToolsString: LintRule = {
  meta: {
    id: 'allowed-tools-string',
    category: 'spec',
    summary: 'allowed-tools is a space-delimited string, not a YAML list',
    doc: 'The Agent Skills specification defines `allowed-tools` as one space-delimited string (`allowed-tools: Bash(git:*) Read`). Lists are accepted by the reference validator, which joins them with spaces, but not by every agent. The fix writes a list of strings as that string.',
    defaultLevel: 'warn',
    fixable: true,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const entry = ctx.subject.fields?.get('allowed-tools');
    if (!entry || entry.kind !== 'seq' || entry.children.some((c) => c.kind !== 'scalar' || c.text === null)) return;
    const joined = entry.children.map((c) => c.text!).join(' ');
    const fixable = entry.children.length > 0 && entry.children.every((c) => c.scalarType === 'string');
    const value = plainSafe(joined) ? joined : JSON.stringify(joined);
    // Replace from the end of the key through the list, so a block list's lines go too, but keep
    // the line break that ends it.
    const end = trimLineBreaks(ctx.subject.text, entry.keyEnd, entry.valueEnd);
    ctx.report({
      offset: entry.valueStart,
      endOffset: entry.valueEnd,
      message: "'allowed-tools' is a list; the specification's form is one space-delimited string",
      ...(fixable ? { fix: [{ start: entry.keyEnd, end, text: `: ${value}` }], fixChanges: [{ path: ['allowed-tools'], from: ['list'], to: joined }] } : {}),
    });
  },
};
