/**
 * frontmatter-present: SKILL.md starts with a YAML frontmatter block that is closed.
 */
import { NO_OPTIONS } from './helpers.js';
import type { LintRule } from '../types.js';

export const frontmatterPresent: LintRule = {
  meta: {
    id: 'frontmatter-present',
    category: 'spec',
    summary: 'SKILL.md starts with a --- frontmatter block that is closed',
    doc: 'The Agent Skills specification puts a skill\'s name and description in YAML frontmatter: the first line of SKILL.md is `---`, the fields follow, and a line `---` closes the block. Without it an agent cannot discover the skill; an unclosed block makes the whole file YAML to some readers and body to others. Add the block, or the missing closing `---` line after the last field.',
    defaultLevel: 'error',
    fixable: false,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const { subject } = ctx;
    if (subject.text.length === 0) {
      ctx.report({ offset: 0, message: 'SKILL.md is empty: it needs a --- frontmatter block with name and description' });
      return;
    }
    for (const p of subject.frontmatterProblems) {
      if (p.kind === 'frontmatter-missing') {
        ctx.report({ offset: 0, endOffset: Math.max(0, subject.text.indexOf('\n')), message: 'SKILL.md must start with YAML frontmatter: a --- line, the fields (name, description), and a closing --- line' });
      } else if (p.kind === 'frontmatter-unclosed') {
        ctx.report({ offset: 0, endOffset: 3, message: 'frontmatter opened by --- on line 1 is never closed: add a --- line after the last field' });
      }
    }
  },
};
