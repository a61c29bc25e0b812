/**
 * frontmatter-yaml: the frontmatter is valid YAML and a mapping of fields.
 */
import { NO_OPTIONS } from './helpers.js';
import type { LintRule } from '../types.js';

export const frontmatterYaml: LintRule = {
  meta: {
    id: 'frontmatter-yaml',
    category: 'spec',
    summary: 'the frontmatter is valid YAML and a mapping of fields',
    doc: 'The frontmatter must parse as YAML, to a mapping from field names to values. A syntax error (an unclosed quote, a tab indent, a colon inside an unquoted value, a duplicate key) means agents and validators see no fields at all, or different ones. The message points at the first character the parser could not read; quote values that contain `: ` or start with a special character.',
    defaultLevel: 'error',
    fixable: false,
    ...NO_OPTIONS,
  },
  check(ctx) {
    for (const p of ctx.subject.frontmatterProblems) {
      if (p.kind === 'frontmatter-yaml-error' || p.kind === 'frontmatter-not-mapping' || p.kind === 'frontmatter-yaml-warning' || p.kind === 'frontmatter-too-large') {
        ctx.report({ offset: p.offset, ...(p.endOffset !== undefined ? { endOffset: p.endOffset } : {}), message: p.message });
      }
    }
  },
};
