/**
 * skill-file-name: the skill file is named exactly SKILL.md, and no other file beside it claims
 * to be one.
 */
import { NO_OPTIONS } from './helpers.js';
import type { LintRule } from '../types.js';

export const skillFileName: LintRule = {
  meta: {
    id: 'skill-file-name',
    category: 'spec',
    summary: 'the skill file is named SKILL.md, in capitals',
    doc: 'The Agent Skills specification names the skill file SKILL.md. Agents and `skillc build` look for that exact name, so on a case-sensitive file system a folder whose file is `skill.md` or `Skill.md` is not a skill to them: it is never discovered or built, although the reference validator accepts it. skillc lint reads such a file as the skill file, reports its name, and checks its contents with every other rule. A second file that differs from SKILL.md only in letter case is reported as well: which of the two a reader takes depends on the file system. Rename the file to SKILL.md (with `git mv`, since a case-only rename is lost on case-insensitive systems), or remove the duplicate.',
    defaultLevel: 'error',
    fixable: false,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const { fileName, entries } = ctx.subject;
    if (fileName !== 'SKILL.md') {
      ctx.report({ offset: 0, message: `the skill file is named '${fileName}'; agents and skillc build look for SKILL.md, so they do not see this skill: rename it to SKILL.md` });
    }
    for (const entry of [...entries].sort()) {
      if (entry !== fileName && !entry.includes('/') && entry.toLowerCase() === 'skill.md') {
        ctx.report({ file: entry, line: 1, column: 1, message: `'${entry}' differs from the skill file ${fileName} only in letter case; readers may take either: remove it or give it another name` });
      }
    }
  },
};
