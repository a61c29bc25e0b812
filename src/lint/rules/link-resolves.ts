/**
 * link-resolves: relative links in SKILL.md point at files that exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NO_OPTIONS } from './helpers.js';
import type { LintRule } from '../types.js';
import { relativeLinks } from './links.js';

export const linkResolves: LintRule = {
  meta: {
    id: 'link-resolves',
    category: 'content',
    summary: 'relative links point at files that exist',
    doc: 'Skills point agents at their scripts, references and assets with relative links (`[form guide](references/forms.md)`). A link whose file is missing sends the agent to a dead end at the moment it needs the detail. Fix the path or add the file; paths are resolved from the skill\'s folder, after removing a #fragment and percent-escapes.',
    defaultLevel: 'error',
    fixable: false,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const { subject } = ctx;
    for (const link of relativeLinks(subject)) {
      const found = link.target.startsWith('../') || link.target === '..' ? fs.existsSync(path.join(subject.dir, link.target)) : link.target === '.' || subject.entries.has(link.target);
      if (!found) ctx.report({ offset: link.offset, message: `${link.kind === 'image' ? 'image' : 'link'} target '${link.url}' does not exist in the skill` });
    }
  },
};
