/**
 * Pass 4, verify (SPEC §2): every cluster gets a profile — the four check scores, the decision and,
 * for a rejection, the first failed check; for a promotion, its witness. Never a model. The risk
 * scanner (tree-sitter grammars, oxc-parser) is loaded only when there is a draft to scan.
 */
import type { Profile } from '../ir/types.js';
import type { RiskScanFn } from '../verify/checks.js';
import { decide } from '../verify/decide.js';
import { verifyDraft } from '../verify/verify-draft.js';
import { unitIndex } from './extract.js';
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
    const scan = byCluster.size > 0 ? await makeScan() : () => [];
    const profiles: Profile[] = [];
    const zero = { coverage: 0, coverageMin: 0, binding: 0, replacement: 0, risk: 0 };
    ir.clusters!.forEach((cluster, i) => {
      const contract = byCluster.get(cluster.id) ?? null;
      if (!contract) {
        profiles.push(decide({ cluster: cluster.id, contract: null, extractionFailure: failures.get(cluster.id) ?? 'no draft', scores: zero, evidence: { coverage: [], binding: [], replacement: [] }, risks: [] }, policy));
      } else {
        profiles.push(verifyDraft(contract, cluster.units.map((id) => index.get(id)!), scan, policy));
      }
      ctx.progress(i + 1, ir.clusters!.length);
    });
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
