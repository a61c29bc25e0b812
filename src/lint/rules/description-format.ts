/**
 * description-format: `description` is present, non-empty and at most 1,024 characters.
 */
import type { LintRule } from '../types.js';
import { codePoints, reportValue } from './helpers.js';

export const descriptionFormat: LintRule<{ maxLength: number }> = {
  meta: {
    id: 'description-format',
    category: 'spec',
    summary: 'description is present, non-empty and at most 1,024 characters',
    doc: 'The description is what an agent reads to decide whether to load a skill, so the Agent Skills specification requires it: a non-empty string of at most 1,024 characters that says what the skill does and when to use it. Move detail beyond that into the body.',
    defaultLevel: 'error',
    fixable: false,
    optionsSchema: { type: 'object', additionalProperties: false, properties: { maxLength: { type: 'integer', minimum: 1 } } },
    defaultOptions: { maxLength: 1024 },
  },
  check(ctx, options) {
    const fields = ctx.subject.fields;
    if (!fields) return;
    const entry = fields.get('description');
    if (!entry) {
      ctx.report({ offset: 0, endOffset: 3, message: "missing required field 'description' in the frontmatter" });
      return;
    }
    if (entry.kind !== 'scalar' || entry.text === null || entry.text.trim() === '') {
      reportValue(ctx, entry, "field 'description' must be a non-empty string");
      return;
    }
    const n = codePoints(entry.text);
    if (n > options.maxLength) reportValue(ctx, entry, `description is ${n} characters long; the limit is ${options.maxLength}`);
  },
};
