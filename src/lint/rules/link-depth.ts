/**
 * link-depth: relative links stay inside the skill and at most one folder deep.
 */
import type { LintRule } from '../types.js';
import { relativeLinks } from './links.js';

export const linkDepth: LintRule<{ maxDepth: number }> = {
  meta: {
    id: 'link-depth',
    category: 'content',
    summary: 'relative links stay in the skill, at most one folder deep',
    doc: 'The Agent Skills specification advises keeping file references one level deep from SKILL.md (`references/api.md`, `scripts/run.py`): agents follow a chain of nested references poorly, and a link out of the skill folder (`../other/SKILL.md`) breaks as soon as the skill is installed alone. Flatten nested folders, or copy what the skill needs into it.',
    defaultLevel: 'warn',
    fixable: false,
    optionsSchema: { type: 'object', additionalProperties: false, properties: { maxDepth: { type: 'integer', minimum: 0 } } },
    defaultOptions: { maxDepth: 1 },
  },
  check(ctx, options) {
    for (const link of relativeLinks(ctx.subject)) {
      if (link.target === '..' || link.target.startsWith('../')) {
        ctx.report({ offset: link.offset, message: `link '${link.url}' leaves the skill's folder: it breaks when the skill is installed on its own` });
        continue;
      }
      const depth = link.target.split('/').length - 1;
      if (depth > options.maxDepth) {
        ctx.report({ offset: link.offset, message: `link '${link.url}' is ${depth} folders deep; keep references at most ${options.maxDepth} level${options.maxDepth === 1 ? '' : 's'} below SKILL.md` });
      }
    }
  },
};
