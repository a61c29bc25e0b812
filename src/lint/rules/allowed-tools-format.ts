/**
 * allowed-tools-format: `allowed-tools`, when present, is a string or a list of strings.
 */
import type { LintRule } from '../types.js';
import { NO_OPTIONS, reportValue } from './helpers.js';

export const allowedToolsFormat: LintRule = {
  meta: {
    id: 'allowed-tools-format',
    category: 'spec',
    summary: 'allowed-tools is a space-delimited string (or a list of strings)',
    doc: 'The experimental `allowed-tools` field lists the tools a skill may use without asking, as a space-delimited string such as `Bash(git:*) Read`. A mapping, or a list holding anything but strings, cannot be read as tool names at all, and the reference validator rejects it.',
    defaultLevel: 'error',
    fixable: false,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const entry = ctx.subject.fields?.get('allowed-tools');
    if (!entry || entry.kind === 'null' || entry.kind === 'scalar') return;
    if (entry.kind === 'seq') {
      const bad = entry.children.find((c) => c.kind !== 'scalar');
      if (bad) reportValue(ctx, bad, "every item of 'allowed-tools' must be a string");
      return;
    }
    reportValue(ctx, entry, "field 'allowed-tools' must be a space-delimited string (or a list of strings)");
  },
};
