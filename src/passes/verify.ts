/**
 * Pass 4, verify (SPEC §2): every cluster gets a profile — the four check scores, the decision and,
 * for a rejection, the first failed check; for a promotion, its witness. Never a model. The risk
 * scanner (tree-sitter grammars, oxc-parser) is loaded only when there is a draft to scan.
 *
 * A contract the build could not emit is not promoted: the declarations of every contract that
 * would be emitted are compiled, and one whose own declaration does not compile (text from a skill
 * that breaks it) fails the schema gate, as does a draft whose checks throw. Either is reported on
 * the cluster (SKC300 with its id) and the build goes on with the other contracts.
 */
import type { Contract, Profile } from '../ir/types.js';
import { makeDiagnostic } from '../ir/diagnostics.js';
import type { RiskScanFn } from '../verify/checks.js';
import { decide } from '../verify/decide.js';
import { verifyDraft } from '../verify/verify-draft.js';
import { unitIndex } from './extract.js';
import { membersKey, profileMemo } from './pass-memo.js';
import type { Pass } from './pass.js';

export const verifyPass: Pass = {
  name: 'verify',
  description: 'coverage, binding, replacement and risk per draft; gates, score and tier; witness or first failed check',
  version: 1,
  requires: ['parents', 'clusters', 'contracts', 'extractionFailures', 'policy'],
  provides: ['profiles'],
  async run(ir, ctx) {
    const policy = ir.policy!;
    const index = unitIndex(ir.parents!);
    const byCluster = new Map(ir.contracts!.map((c) => [c.cluster, c]));
    const failures = new Map(ir.extractionFailures!.map((f) => [f.cluster, f.reason]));
    // Profiles of drafts whose inputs are unchanged since a build that used the cache are read
    // back (pass-memo.ts); the risk scanner is loaded only if some draft is verified anew.
    const memo = profileMemo(ctx.cache);
    const keyOf = (contract: Contract, units: readonly string[]) => membersKey({ pass: 'verify', contract, policy }, units.map((id) => index.get(id)!));
    const fitsFor = (contract: Contract) => (p: Profile) => p.cluster === contract.cluster && p.contract === contract.id;
    // Whether every draft's profile is kept (a cluster whose units are not all in the library has
    // none: it is verified below, where that fails for it alone).
    const allKept =
      memo !== undefined &&
      ir.clusters!.every((c) => {
        const contract = byCluster.get(c.id);
        return !contract || (c.units.every((id) => index.has(id)) && memo.has(keyOf(contract, c.units), fitsFor(contract)));
      });
    const scan = byCluster.size > 0 && !allKept ? await makeScan() : () => [];
    const profiles: Profile[] = [];
    const zero = { coverage: 0, coverageMin: 0, binding: 0, replacement: 0, risk: 0 };
    const noEvidence = { coverage: [], binding: [], replacement: [] };
    const unusable = (clusterId: string, contract: Contract, why: string) => {
      const first = index.get(ir.clusters!.find((c) => c.id === clusterId)?.units[0] ?? '');
      ctx.report(makeDiagnostic('verify', 'contract-dropped', { file: first?.parent.file ?? '.', line: first?.unit.line ?? 1, message: `contract ${contract.id} (cluster ${clusterId}) is not promoted: ${why}` }));
      return decide({ cluster: clusterId, contract, schemaErrors: [why], scores: zero, evidence: noEvidence, risks: [] }, policy);
    };
    ir.clusters!.forEach((cluster, i) => {
      const contract = byCluster.get(cluster.id) ?? null;
      if (!contract) {
        profiles.push(decide({ cluster: cluster.id, contract: null, extractionFailure: failures.get(cluster.id) ?? 'no draft', scores: zero, evidence: noEvidence, risks: [] }, policy));
      } else {
        try {
          const verify = () => verifyDraft(contract, cluster.units.map((id) => index.get(id)!), scan, policy);
          profiles.push(memo ? memo.through(keyOf(contract, cluster.units), verify, fitsFor(contract)) : verify());
        } catch (err) {
          profiles.push(unusable(cluster.id, contract, `verifying it failed (${err instanceof Error ? err.message : String(err)})`));
        }
      }
      ctx.progress(i + 1, ir.clusters!.length);
    });
    // What would be emitted must be emittable: its declaration compiles.
    const emitted = profiles.filter((p) => p.decision !== 'reject').map((p) => byCluster.get(p.cluster)!);
    if (emitted.length > 0) {
      const { brokenDeclarations } = await import('../typed/type-check.js');
      const { typeScriptMemoOf } = await import('../typed/compile-memo.js');
      const broken = await brokenDeclarations(emitted, typeScriptMemoOf(ctx.cache));
      for (const [id, why] of broken) {
        const contract = emitted.find((c) => c.id === id)!;
        const at = profiles.findIndex((p) => p.cluster === contract.cluster);
        profiles[at] = unusable(contract.cluster, contract, `its TypeScript declaration does not compile (${why})`);
      }
    }
    memo?.save();
    return { profiles };
  },
};

/** The risk scanner as the checks call it (also used by `skillc calibrate` to judge its controls). */
export async function makeScan(): Promise<RiskScanFn> {
  const { createRiskScanner } = await import('../risk/scan.js');
  const { languageOf } = await import('../risk/languages.js');
  const scanner = await createRiskScanner();
  return (code, fenceLang, filePath) => {
    const lang = languageOf(fenceLang, filePath);
    return lang === null ? [] : scanner.scan(code, lang).findings;
  };
}
