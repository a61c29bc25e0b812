/**
 * unknown-fields: the frontmatter holds only the fields the Agent Skills specification defines.
 */
import type { LintRule } from '../types.js';
import { reportKey } from './helpers.js';

/** The fields the Agent Skills specification defines (the reference validator's allowed set). */
export const SPEC_FIELDS: readonly string[] = ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'];

export const unknownFields: LintRule<{ allow: string[] }> = {
  meta: {
    id: 'unknown-fields',
    category: 'spec',
    summary: 'only the specification\'s frontmatter fields are used',
    doc: 'The Agent Skills specification defines six frontmatter fields: name, description, license, compatibility, metadata and allowed-tools. Other top-level fields (version, author, tags, …) are ignored by some agents and rejected by the reference validator; put them under `metadata` instead. By default this is a warning; `--strict` makes it an error, as the reference validator does. The `allow` option lists fields your agents do read (for example a vendor extension).',
    defaultLevel: 'warn',
    strictLevel: 'error',
    fixable: false,
    optionsSchema: { type: 'object', additionalProperties: false, properties: { allow: { type: 'array', items: { type: 'string' }, uniqueItems: true } } },
    defaultOptions: { allow: [] },
  },
  check(ctx, options) {
    const fields = ctx.subject.fields;
    if (!fields) return;
    const allowed = new Set([...SPEC_FIELDS, ...options.allow]);
    for (const entry of fields.entries) {
      if (!allowed.has(entry.key)) reportKey(ctx, entry, `unknown frontmatter field '${entry.key}': the specification allows ${SPEC_FIELDS.join(', ')}; move it under metadata`);
    }
  },
};
