/**
 * Pass 6, rewrite (SPEC §2): for every parent with call-sites, splice the invoke lines and the
 * marker into the original text by offsets, then run the deterministic Rewrite Cleanup over the
 * remaining units. Post-checks per parent: the invokes parsed back out of the new text are exactly
 * its call-sites (every invoked contract is still referenced), and every word of the new text
 * occurs in the original parent, in an invoked contract's id or input names, or in skillc's own
 * marker. A parent whose cleanup fails the post-check keeps the skeleton without cleanup.
 */
import type { Cleanup, RewrittenParent } from '../ir/types.js';
import { makeDiagnostic } from '../ir/diagnostics.js';
import { loadVerbLexicon } from '../propose/lexicon.js';
import { cleanupEdits, type InvokedContract } from '../rewrite/cleanup.js';
import { parseInvokes } from '../rewrite/invoke.js';
import { markerLine, replacedFileName, REPLACED_FILE, skeletonEdits } from '../rewrite/rewrite-parent.js';
import { applyEdits } from '../rewrite/splice.js';
import type { Pass } from './pass.js';
import { groupBy } from '../util/group-by.js';

export const rewritePass: Pass = {
  name: 'rewrite',
  description: 'invoke lines spliced into each touched parent by offsets; deterministic Rewrite Cleanup; post-checks',
  version: 1,
  requires: ['parents', 'clusters', 'contracts', 'callSites'],
  provides: ['rewrites'],
  run(ir, ctx) {
    const lexicon = loadVerbLexicon();
    const contracts = new Map(ir.contracts!.map((c) => [c.id, c]));
    const verbs = new Map(ir.clusters!.map((c) => [c.id, c.verb]));
    const byParent = groupBy(ir.callSites!, (cs) => cs.parent);
    const rewrites: RewrittenParent[] = [];
    const parents = ir.parents!.filter((p) => byParent.has(p.path));
    parents.forEach((parent, i) => {
      const sites = byParent.get(parent.path)!;
      const invoked: InvokedContract[] = sites.map((cs) => {
        const contract = contracts.get(cs.contract)!;
        return { callSite: cs, contract, verb: verbs.get(contract.cluster)! };
      });
      const replacedFile = replacedFileName(parent);
      if (replacedFile !== REPLACED_FILE) ctx.report(makeDiagnostic('rewrite', 'replaced-file-name-taken', { file: parent.file, message: `the skill already has ${REPLACED_FILE}; the original text of rewritten sections goes to ${replacedFile}` }));
      const skeleton = skeletonEdits(parent, sites, replacedFile);
      const cleanup = cleanupEdits(parent, invoked, lexicon);
      let cleanups: Cleanup[] = cleanup.cleanups;
      let text = applyEdits(skeleton.original, [...skeleton.edits, ...cleanup.edits]);
      let problem = postCheck(skeleton.original, text, invoked, replacedFile);
      if (problem !== null && cleanups.length > 0) {
        ctx.report(makeDiagnostic('rewrite', 'rewrite-postcheck-failed', { file: parent.file, message: `${problem}; the ${cleanups.length} cleanup edit(s) were undone` }));
        cleanups = [];
        text = applyEdits(skeleton.original, skeleton.edits);
        problem = postCheck(skeleton.original, text, invoked, replacedFile);
      }
      if (problem !== null) throw new Error(`internal: the skeleton of ${parent.file} fails its post-check: ${problem}`);
      for (const c of cleanups) {
        ctx.report(makeDiagnostic('rewrite', 'rewrite-cleanup', { file: parent.file, line: c.line, message: `"${c.before}" contradicts ${c.contract} (its template uses another verb); rewritten as ${c.after}` }));
      }
      rewrites.push({
        parent: parent.path,
        text,
        callSites: sites.map((s) => s.unit),
        cleanups,
        replacedFile,
        cleanedUnits: [...new Set(cleanups.map((c) => c.unit))],
      });
      ctx.progress(i + 1, parents.length);
    });
    return { rewrites };
  },
};

/** Null when the rewritten text passes, else what is wrong. */
export function postCheck(original: string, rewritten: string, invoked: readonly InvokedContract[], replacedFile: string): string | null {
  const found = parseInvokes(rewritten);
  for (const inv of invoked) {
    const ok = found.some((f) => f.contract === inv.contract.id && sameBindings(f.bindings, inv.callSite.bindings));
    if (!ok) return `the invoke of ${inv.contract.id} for ${inv.callSite.unit} is missing`;
  }
  for (const f of found) if (!invoked.some((i) => i.contract.id === f.contract)) return `an invoke of ${f.contract}, which this parent does not call`;
  const allowed = new Set(words(original));
  for (const w of words(markerLine(invoked.length, replacedFile))) allowed.add(w);
  for (const inv of invoked) for (const w of words(`invoke ${inv.contract.id} ${inv.contract.input_schema.map((f) => f.name).join(' ')}`)) allowed.add(w);
  const added = [...new Set(words(rewritten))].filter((w) => !allowed.has(w));
  return added.length === 0 ? null : `words that occur neither in the parent nor in its contracts: ${added.slice(0, 5).join(', ')}`;
}

function sameBindings(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+/gu) ?? [];
}
