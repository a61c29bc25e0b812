/**
 * The rules of rules/malicious-patterns.json (issue 20), one per technique: each reports the
 * findings of src/risk/malicious.ts for its technique in SKILL.md (prose and code alike) and in the
 * skill's scripts and other text files. They are errors by default and no declaration in metadata.side-effects quiets
 * them: a skill may declare that it runs a download, not that it hides one. Nor does a
 * skillc-disable comment in the skill (inlineDisable: false): only the lint config turns them off.
 */
import type { LintRule } from '../types.js';
import { LineIndex } from '../../text/line-index.js';
import { describeFinding, maliciousTechniques, scanMalicious, type TechniqueId } from '../../risk/malicious.js';

export function maliciousInstallRule(technique: TechniqueId): LintRule {
  const t = maliciousTechniques().find((x) => x.id === technique);
  if (!t) throw new Error(`rules/malicious-patterns.json has no technique ${technique}`);
  return {
    meta: {
      id: technique,
      category: 'safety',
      summary: t.summary,
      doc: `${t.doc} Reported in SKILL.md, prose included, and in the skill's scripts and text files (references, a Makefile, package.json); a declaration in metadata.side-effects does not quiet it. The patterns are data in rules/malicious-patterns.json.`,
      defaultLevel: 'error',
      fixable: false,
      optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
      defaultOptions: {},
      tags: ['security'],
      securitySeverity: '9.0',
      inlineDisable: false,
    },
    check(ctx) {
      const { subject } = ctx;
      for (const f of scanMalicious(subject.text)) {
        if (f.technique === technique) ctx.report({ offset: f.offset, endOffset: f.offset + f.length, message: describeFinding(f) });
      }
      // Every text file alike (assets without text are skipped): an agent runs what a reference file
      // tells it as readily as what SKILL.md does, and a Makefile or package.json script is run by the tools.
      for (const s of [...subject.parent.scripts, ...subject.parent.references, ...subject.parent.assets]) {
        if (s.text === undefined) continue;
        const findings = scanMalicious(s.text).filter((f) => f.technique === technique);
        if (findings.length === 0) continue;
        const index = new LineIndex(s.text);
        for (const f of findings) ctx.report({ file: s.relPath, ...index.position(f.offset), message: describeFinding(f) });
      }
    },
  };
}
