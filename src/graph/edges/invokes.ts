/**
 * invokes: parent → contract, one edge per (parent, contract) pair with at least one call-site;
 * the weight is the number of call-sites, the evidence each call-site's line.
 */
import { groupBy } from '../../util/group-by.js';
import type { EdgeRule } from './edge-rule.js';

export const invokesRule: EdgeRule = {
  type: 'invokes',
  describe: 'the parent has call-sites of the contract (weight: number of call-sites)',
  build(ctx) {
    const idOf = new Map(ctx.parents.map((p, i) => [p.path, ctx.parentIds[i]!]));
    const promoted = new Set(ctx.contracts.map((c) => c.id));
    const pairs = groupBy(
      ctx.callSites.filter((cs) => promoted.has(cs.contract) && idOf.has(cs.parent)),
      (cs) => `${cs.parent}\u0000${cs.contract}`,
    );
    return [...pairs.values()].map((sites) => ({
      from: idOf.get(sites[0]!.parent)!,
      to: ctx.contractId(sites[0]!.contract),
      type: 'invokes' as const,
      weight: sites.length,
      evidence: sites.map((s) => ({ kind: 'call-site' as const, detail: s.invoke, file: s.file, line: s.line })),
    }));
  },
};
