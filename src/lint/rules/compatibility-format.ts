/**
 * compatibility-format: `compatibility`, when present, is a string of at most 500 characters.
 */
import type { LintRule } from '../types.js';
import { codePoints, reportValue } from './helpers.js';

export const compatibilityFormat: LintRule<{ maxLength: number }> = {
  meta: {
    id: 'compatibility-format',
    category: 'spec',
    summary: 'compatibility is a string of at most 500 characters',
    doc: 'The optional `compatibility` field says what a skill needs from its environment (a product, system packages, network access). The Agent Skills specification makes it a string of at most 500 characters; a list or mapping is not read by agents, and a longer text belongs in the body.',
    defaultLevel: 'error',
    fixable: false,
    optionsSchema: { type: 'object', additionalProperties: false, properties: { maxLength: { type: 'integer', minimum: 1 } } },
    defaultOptions: { maxLength: 500 },
  },
  check(ctx, options) {
    const entry = ctx.subject.fields?.get('compatibility');
    if (!entry || entry.kind === 'null') return;
    if (entry.kind !== 'scalar' || entry.text === null) {
      reportValue(ctx, entry, "field 'compatibility' must be a string");
      return;
    }
    const n = codePoints(entry.text);
    if (n > options.maxLength) reportValue(ctx, entry, `compatibility is ${n} characters long; the limit is ${options.maxLength}`);
  },
};
