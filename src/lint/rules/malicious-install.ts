/**
 * The rules of rules/malicious-patterns.json (issue 20), one per technique: each reports the
 * findings of src/risk/malicious.ts for its technique in SKILL.md (prose and code alike) and in the
 * skill's scripts. They are errors by default and no declaration in metadata.side-effects quiets
 * them: a skill may declare that it runs a download, not that it hides one.
 */
import type { LintRule } from '../types.js';
import { describeFinding, maliciousTechniques, scanMalicious, type TechniqueId } from '../../risk/malicious.js';

export function maliciousInstallRule(technique: TechniqueId): LintRule {
  const t = maliciousTechniques().find((x) => x.id === technique);
  if (!t) throw new Error(`rules/malicious-patterns.json has no technique ${technique}`);
  return {
    meta: {
      id: technique,
      category: 'safety',
      summary: t.summary,
      doc: `${t.doc} Reported in SKILL.md, prose included, and in the skill's scripts; a declaration in metadata.side-effects does not quiet it. The patterns are data in rules/malicious-patterns.json.`,
      defaultLevel: 'error',
      fixable: false,
      optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
      defaultOptions: {},
      tags: ['security'],
      securitySeverity: '9.0',
    },
    check(ctx) {
      const { subject } = ctx;
      for (const f of scanMalicious(subject.text)) {
        if (f.technique === technique) ctx.report({ offset: f.offset, endOffset: f.offset + f.length, message: describeFinding(f) });
      }
      for (const s of subject.parent.scripts) {
        if (s.text === undefined) continue;
        for (const f of scanMalicious(s.text)) {
          if (f.technique !== technique) continue;
          const before = s.text.slice(0, f.offset);
          ctx.report({ file: s.relPath, line: before.split('\n').length, column: f.offset - before.lastIndexOf('\n'), message: describeFinding(f) });
        }
      }
    },
  };
}
