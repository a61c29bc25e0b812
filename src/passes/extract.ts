/**
 * Pass 3, extract (SPEC §2): one contract draft per cluster, deterministically (see
 * extract/contract.ts). With --llm, each cluster is also sent to the model with the deterministic
 * draft as a starting point (extract/model-draft.ts); a grounded reply replaces the draft, a
 * declined one (`_extraction_failed`) makes the cluster an extraction failure, and anything else
 * keeps the deterministic draft with a diagnostic. Ids are kebab-case from the trigger, unique
 * across the build: a collision takes the suffix -2, -3 … in cluster order (largest cluster first).
 */
import type { Cluster, Contract, ExtractionFailure, ModelReplyRecord, Parent, Unit } from '../ir/types.js';
import { extractContract, type MemberUnit } from '../extract/contract.js';
import { extractRequest, groundReply } from '../extract/model-draft.js';
import { EXTRACT_PROMPT } from '../llm/prompts/extract-contract.js';
import { recordReply } from '../llm/reply-record.js';
import { kebab } from '../text/tokens.js';
import type { Pass, PassContext } from './pass.js';

export const extractPass: Pass = {
  name: 'extract',
  description: 'one contract draft per cluster: anti-unified templates, typed slots, trigger, conditions, side effects (with --llm: a model draft, grounded in the units)',
  version: 1,
  requires: ['parents', 'clusters'],
  provides: ['contracts', 'extractionFailures', 'modelReplies'],
  async run(ir, ctx) {
    const index = unitIndex(ir.parents!);
    const clusters = ir.clusters!;
    const members = clusters.map((cluster) => cluster.units.map((id): MemberUnit => index.get(id)!));
    let drafts: (Contract | ExtractionFailure)[] = clusters.map((cluster, i) => {
      const d = extractContract(cluster, members[i]!);
      if (!ctx.llm) ctx.progress(i + 1, clusters.length);
      return d;
    });
    let records: ModelReplyRecord[] | undefined;
    if (ctx.llm) ({ drafts, records } = await withModel(clusters, members, drafts, ctx));

    const contracts: Contract[] = [];
    const failures: ExtractionFailure[] = [];
    const ids = new Set<string>();
    for (const draft of drafts) {
      if ('reason' in draft) {
        failures.push(draft);
        continue;
      }
      const base = kebab(draft.trigger);
      let id = base;
      for (let k = 2; ids.has(id); k++) id = `${base}-${k}`;
      ids.add(id);
      contracts.push({ ...draft, id });
    }
    return { contracts, extractionFailures: failures, ...(records ? { modelReplies: [...(ir.modelReplies ?? []), ...records] } : {}) };
  },
};

/** One request per cluster, all in flight at once (the service bounds concurrency); results in cluster order. */
async function withModel(clusters: readonly Cluster[], members: readonly MemberUnit[][], drafts: readonly (Contract | ExtractionFailure)[], ctx: PassContext): Promise<{ drafts: (Contract | ExtractionFailure)[]; records: ModelReplyRecord[] }> {
  const llm = ctx.llm!;
  let done = 0;
  const results = await Promise.all(clusters.map(async (cluster, i): Promise<{ draft: Contract | ExtractionFailure; record: ModelReplyRecord }> => {
    const ms = members[i]!;
    const draft = drafts[i]!;
    const first = ms[0]!;
    const item = { pass: 'extract' as const, item: `cluster ${cluster.id}`, file: first.parent.file, line: first.unit.line };
    const answer = await llm.ask({ prompt: EXTRACT_PROMPT, user: extractRequest(cluster, ms, draft) });
    ctx.progress(++done, clusters.length);
    if (!answer.ok) return { draft, record: recordReply(ctx, item, { outcome: 'failed', kind: answer.kind, reason: answer.message, cacheKey: answer.cacheKey }) };
    const g = groundReply(answer.reply, cluster, ms, { method: 'model', version: EXTRACT_PROMPT.version, model: llm.model, cacheKey: answer.cacheKey });
    switch (g.kind) {
      case 'declined':
        return { draft: g.failure, record: recordReply(ctx, item, { outcome: 'declined', reason: g.failure.reason, cacheKey: answer.cacheKey }) };
      case 'rejected':
        return { draft, record: recordReply(ctx, item, { outcome: 'rejected', reason: g.reason, cacheKey: answer.cacheKey }) };
      case 'contract':
        return { draft: g.contract, record: recordReply(ctx, item, { outcome: 'accepted', reason: g.dropped.length ? `templates dropped: ${g.dropped.join('; ')}` : '', cacheKey: answer.cacheKey }) };
    }
  }));
  return { drafts: results.map((r) => r.draft), records: results.map((r) => r.record) };
}

export function unitIndex(parents: readonly Parent[]): Map<string, { unit: Unit; parent: Parent }> {
  const index = new Map<string, { unit: Unit; parent: Parent }>();
  for (const p of parents) for (const u of p.units) index.set(u.id, { unit: u, parent: p });
  return index;
}
