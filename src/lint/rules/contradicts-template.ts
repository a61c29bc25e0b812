/**
 * contradicts-template: in a skill that re-describes a promoted contract of the built library
 * (--dist), a line elsewhere states the same action on the same objects with another verb than
 * the contract's template. Needs --dist.
 */
import type { ActionTemplate, Parent } from '../../ir/types.js';
import type { VerbLexicon } from '../../propose/lexicon.js';
import type { InvokedContract } from '../../rewrite/cleanup.js';
import { NO_OPTIONS } from './helpers.js';
import type { LintRule } from '../types.js';

export const contradictsTemplate: LintRule = {
  meta: {
    id: 'contradicts-template',
    category: 'library',
    summary: 'a line contradicts the template of a contract the skill re-describes',
    doc: 'With `--dist <dir>` (the output of `skillc build`), the sections that re-describe an auto-promoted contract (see redescribes-contract) fix the values this skill uses, and the contract\'s templates fix the action. This rule reports each line elsewhere in the skill that names all those values but starts with another verb of the same class than the template, such as an example line `put crate K9 on shelf S2` next to a template `move crate {target} to shelf {target_2}`: two wordings of one step leave the agent guessing which is right, and the contract\'s is the one the library verifies. It runs the same check as the build\'s Rewrite Cleanup, which rewrites such lines to the invoke; lines that only introduce a command (ending in a colon), ask a question, or carry their own command in a code span are left alone. Reword the line with the template\'s verb, or replace it with the suggested `invoke(...)` line.',
    defaultLevel: 'warn',
    fixable: false,
    needsDist: true,
    ...NO_OPTIONS,
  },
  async check(ctx) {
    const dist = await ctx.services.dist();
    if (!dist) return;
    // Loaded only with a dist: a lint run without --dist never pays for the binder or the cleanup.
    const [{ boundUnits }, { cleanupEdits }] = await Promise.all([import('../dist.js'), import('../../rewrite/cleanup.js')]);
    const { parent } = ctx.subject;
    const bound = boundUnits(dist, parent);
    if (bound.length === 0) return;
    // Each bound section as the call-site the build would record for it.
    const invoked: InvokedContract[] = bound.map((b) => ({
      callSite: {
        unit: b.unit.id,
        parent: parent.path,
        file: parent.file,
        line: b.unit.line,
        contract: b.entry.contract.id,
        detection: 'match',
        bindings: b.bindings,
        actions: b.actions,
        invoke: b.invoke,
        binder: 'deterministic',
      },
      contract: b.entry.contract,
      verb: b.entry.verb,
    }));
    const { edits, cleanups } = cleanupEdits(parent, invoked, dist.lexicon);
    // cleanupEdits emits one edit per cleanup, in the same order.
    cleanups.forEach((c, i) => {
      const edit = edits[i]!;
      const k = invoked.findIndex((inv) => inv.callSite.invoke === c.after);
      const template = conflictingTemplate(parent, invoked, k, c.line, dist.lexicon, cleanupEdits);
      const lineVerb = c.before.trim().split(/\s+/)[0] ?? '';
      const what = template ? `its template \`${template.template}\` says '${firstWord(template.template)}'` : 'its templates use another verb';
      ctx.report({
        offset: edit.start,
        endOffset: edit.end,
        message: `'${c.before}' contradicts contract ${c.contract} (${invoked[k]?.contract.trigger ?? c.contract}): ${what}, this line says '${lineVerb}'`,
        suggestion: c.after,
      });
    });
  },
};

/**
 * Which template of invoked[k]'s contract the line at `line` contradicts. The cleanup only says
 * that some template does; running it again with that contract reduced to one template at a time
 * (the others reduced to none, so the same sections count as replaced) names the first one, the
 * one the cleanup itself stopped at.
 */
function conflictingTemplate(
  parent: Parent,
  invoked: readonly InvokedContract[],
  k: number,
  line: number,
  lexicon: VerbLexicon,
  cleanupEdits: typeof import('../../rewrite/cleanup.js').cleanupEdits,
): ActionTemplate | undefined {
  const target = invoked[k];
  if (!target) return undefined;
  for (const t of target.contract.templates) {
    const only = invoked.map((inv, j) => ({ ...inv, contract: { ...inv.contract, templates: j === k ? [t] : [] } }));
    if (cleanupEdits(parent, only, lexicon).cleanups.some((c) => c.line === line)) return t;
  }
  return undefined;
}

function firstWord(template: string): string {
  return template.trim().split(/\s+/)[0] ?? '';
}
