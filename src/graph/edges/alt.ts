/**
 * alt: interchangeable implementations (SPEC §5, "same contract or same I/O, different
 * implementation"). Two parents with the same non-empty input and output artifact types, and two
 * contracts with the same typed input and output fields, are linked both ways. A signature shared
 * by more than `MAX_GROUP` parents says little about interchangeability (every "read a PDF, write
 * JSON" skill), so such groups add no edges. Near-copies (cosine ≥ 0.9) are left to sem.
 */
import { cosine } from '../../propose/tfidf.js';
import type { Contract, FieldSpec } from '../../ir/types.js';
import { groupBy } from '../../util/group-by.js';
import type { GraphEdge } from '../types.js';
import type { EdgeRule } from './edge-rule.js';

export const MAX_GROUP = 12;
const NEAR_COPY = 0.9;

export const altRule: EdgeRule = {
  type: 'alt',
  describe: `same input and output artifact types (parents; groups of at most ${MAX_GROUP}, near-copies excluded) or same typed I/O fields (contracts)`,
  build(ctx) {
    const edges: GraphEdge[] = [];
    const withIO = ctx.io.map((io, i) => ({ io, i })).filter(({ io }) => io.inputs.length > 0 && io.outputs.length > 0);
    for (const group of groupBy(withIO, ({ io }) => `${io.inputs.join(',')} -> ${io.outputs.join(',')}`).values()) {
      if (group.length < 2 || group.length > MAX_GROUP) continue;
      const signature = `${group[0]!.io.inputs.join(', ')} → ${group[0]!.io.outputs.join(', ')}`;
      for (const a of group) {
        for (const b of group) {
          if (a.i === b.i || cosine(ctx.vectors[a.i]!, ctx.vectors[b.i]!) >= NEAR_COPY) continue;
          edges.push({ from: ctx.parentIds[a.i]!, to: ctx.parentIds[b.i]!, type: 'alt', weight: 1, evidence: [{ kind: 'io-signature', detail: signature }] });
        }
      }
    }
    const withFields = ctx.contracts.filter((c) => c.input_schema.length + c.output_schema.length > 0);
    for (const group of groupBy(withFields, contractSignature).values()) {
      if (group.length < 2 || group.length > MAX_GROUP) continue;
      for (const a of group) {
        for (const b of group) {
          if (a.id !== b.id) edges.push({ from: ctx.contractId(a.id), to: ctx.contractId(b.id), type: 'alt', weight: 1, evidence: [{ kind: 'contract-io', detail: contractSignature(a) }] });
        }
      }
    }
    return edges;
  },
};

function contractSignature(c: Contract): string {
  const f = (xs: readonly FieldSpec[]) => xs.map((x) => `${x.name}: ${x.type}`).sort().join(', ');
  return `(${f(c.input_schema)}) → (${f(c.output_schema)})`;
}
