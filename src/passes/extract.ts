/**
 * Pass 3, extract (SPEC §2): one contract draft per cluster, deterministically (see
 * extract/contract.ts). With --llm, each cluster is also sent to the model with the deterministic
 * draft as a starting point (extract/model-draft.ts); a grounded reply replaces the draft, a
 * declined one (`_extraction_failed`) makes the cluster an extraction failure, and anything else
 * keeps the deterministic draft with a diagnostic. Clusters whose drafts have the same template
 * set are merged first (one procedure, one contract); ids are verb-object words from the
 * templates (extract/contract-id.ts), unique across the build and never numbered.
 */
import type { Cluster, Contract, ExtractionFailure, ModelReplyRecord, Parent, Unit } from '../ir/types.js';
import { draftInputOf, extractContract, type MemberUnit } from '../extract/contract.js';
import { extractRequest, groundReply } from '../extract/model-draft.js';
import { EXTRACT_PROMPT } from '../llm/prompts/extract-contract.js';
import { recordReply } from '../llm/reply-record.js';
import { makeDiagnostic } from '../ir/diagnostics.js';
import { contractIds } from '../extract/contract-id.js';
import { slotsBlanked } from '../rewrite/templates.js';
import { sha256 } from '../util/hash.js';
import { draftMemo, membersKey } from './pass-memo.js';
import type { Pass, PassContext } from './pass.js';

export const extractPass: Pass = {
  name: 'extract',
  description: 'one contract draft per cluster: anti-unified templates, typed slots, trigger, conditions, side effects (with --llm: a model draft, grounded in the units)',
  version: 1,
  requires: ['parents', 'clusters'],
  provides: ['clusters', 'contracts', 'extractionFailures', 'modelReplies'],
  async run(ir, ctx) {
    const index = unitIndex(ir.parents!);
    // Same-template drafts are one procedure: merge their clusters before anything else sees them.
    // Drafts of clusters whose members' parents are unchanged since a build that used the cache
    // are read back (pass-memo.ts).
    const memo = draftMemo(ctx.cache);
    const draft = memo
      ? (c: Cluster, ms: readonly MemberUnit[]) => {
          const input = draftInputOf(c);
          return memo.through(membersKey({ pass: 'extract', cluster: input }, ms), () => extractContract(input, ms), (v) => v.cluster === input.id);
        }
      : undefined;
    const { clusters, drafts: first } = mergeSameTemplates(
      ir.clusters!,
      index,
      (i, n) => {
        if (!ctx.llm) ctx.progress(i, n);
      },
      draft,
    );
    memo?.save();
    const members = clusters.map((cluster) => cluster.units.map((id): MemberUnit => index.get(id)!));
    let drafts = first;
    let records: ModelReplyRecord[] | undefined;
    if (ctx.llm) ({ drafts, records } = await withModel(clusters, members, drafts, ctx));

    const contracts: Contract[] = [];
    const failures: ExtractionFailure[] = [];
    // A model's drafts can still coincide: the later one is not a contract of its own.
    const byTemplates = new Map<string, Contract>();
    const kept: Contract[] = [];
    for (const draft of drafts) {
      if ('reason' in draft) {
        failures.push(draft);
        continue;
      }
      const key = templateKey(draft);
      const earlier = byTemplates.get(key);
      if (earlier) {
        failures.push({ cluster: draft.cluster, reason: `same templates as the draft of cluster ${earlier.cluster}: one procedure, not a second contract` });
        continue;
      }
      byTemplates.set(key, draft);
      kept.push(draft);
    }
    const ids = contractIds(kept);
    kept.forEach((draft, i) => contracts.push({ ...draft, id: ids[i]! }));
    return { clusters, contracts, extractionFailures: failures, ...(records ? { modelReplies: [...(ir.modelReplies ?? []), ...records] } : {}) };
  },
};

/**
 * The template set of a draft, as a key: slots as `{}`, since two drafts that differ only in what
 * they call a slot (`go to {receptacle}`, `go to {destination}`) are one procedure.
 */
export function templateKey(c: Pick<Contract, 'templates'>): string {
  return [...new Set(c.templates.map(slotsBlanked))].sort().join('\n');
}

/**
 * Deterministic drafts for the clusters, with clusters whose drafts have the same template set
 * merged into the first (largest) of them and drafted again over the union, until no two drafts
 * share a template set. A merged cluster takes a new id (ids derive from the members).
 */
export function mergeSameTemplates(
  input: readonly Cluster[],
  index: ReadonlyMap<string, MemberUnit>,
  progress: (done: number, total: number) => void = () => {},
  draftOf: (cluster: Cluster, members: readonly MemberUnit[]) => Contract | ExtractionFailure = (c, ms) => extractContract(draftInputOf(c), ms),
): { clusters: Cluster[]; drafts: (Contract | ExtractionFailure)[] } {
  let clusters = [...input];
  const membersOf = (c: Cluster) => c.units.map((id): MemberUnit => index.get(id)!);
  let drafts = clusters.map((c, i) => {
    const d = draftOf(c, membersOf(c));
    progress(i + 1, clusters.length);
    return d;
  });
  for (let round = 0; round < input.length; round++) {
    const firstWith = new Map<string, number>();
    const into = new Map<number, number[]>();
    drafts.forEach((d, i) => {
      if ('reason' in d) return;
      const key = templateKey(d);
      const at = firstWith.get(key);
      if (at === undefined) firstWith.set(key, i);
      else into.set(at, [...(into.get(at) ?? []), i]);
    });
    if (into.size === 0) break;
    const gone = new Set([...into.values()].flat());
    const order = new Map<string, number>();
    for (const c of input) for (const u of c.units) if (!order.has(u)) order.set(u, order.size);
    const next: Cluster[] = [];
    const nextDrafts: (Contract | ExtractionFailure)[] = [];
    clusters.forEach((c, i) => {
      if (gone.has(i)) return;
      const others = (into.get(i) ?? []).map((j) => clusters[j]!);
      if (others.length === 0) {
        next.push(c);
        nextDrafts.push(drafts[i]!);
        return;
      }
      const units = [...new Set([c, ...others].flatMap((x) => x.units))].sort((a, b) => unitOrder(index, a, b));
      const merged: Cluster = {
        ...c,
        id: `c-${sha256(units.join('\n')).slice(0, 12)}`,
        units,
        parents: [...new Set([c, ...others].flatMap((x) => x.parents))].sort(),
        minLinkCosine: Math.min(c.minLinkCosine, ...others.map((o) => o.minLinkCosine)),
      };
      next.push(merged);
      nextDrafts.push(draftOf(merged, membersOf(merged)));
    });
    clusters = next;
    drafts = nextDrafts;
  }
  return { clusters, drafts };
}

/** Parent path, then unit index: the order cluster members are kept in. */
function unitOrder(index: ReadonlyMap<string, MemberUnit>, a: string, b: string): number {
  const x = index.get(a)!;
  const y = index.get(b)!;
  if (x.parent.path !== y.parent.path) return x.parent.path < y.parent.path ? -1 : 1;
  return x.unit.index - y.unit.index;
}

/** One request per cluster, all in flight at once (the service bounds concurrency); results in cluster order. */
async function withModel(clusters: readonly Cluster[], members: readonly MemberUnit[][], drafts: readonly (Contract | ExtractionFailure)[], ctx: PassContext): Promise<{ drafts: (Contract | ExtractionFailure)[]; records: ModelReplyRecord[] }> {
  const llm = ctx.llm!;
  let done = 0;
  const results = await Promise.all(clusters.map(async (cluster, i): Promise<{ draft: Contract | ExtractionFailure; record: ModelReplyRecord }> => {
    const ms = members[i]!;
    const draft = drafts[i]!;
    // An author template is the authors' own abstraction: nothing for a model to redraw.
    if (cluster.origin === 'author-template') {
      ctx.progress(++done, clusters.length);
      return { draft, record: recordReply(ctx, { pass: 'extract', item: `cluster ${cluster.id}`, file: ms[0]!.parent.file, line: ms[0]!.unit.line }, { outcome: 'skipped', reason: 'an author template: the contract is the template the authors wrote' }) };
    }
    const first = ms[0]!;
    const item = { pass: 'extract' as const, item: `cluster ${cluster.id}`, file: first.parent.file, line: first.unit.line };
    const answer = await llm.ask({ prompt: EXTRACT_PROMPT, user: extractRequest(cluster, ms, draft) });
    ctx.progress(++done, clusters.length);
    if (!answer.ok) return { draft, record: recordReply(ctx, item, { outcome: 'failed', kind: answer.kind, reason: answer.message, cacheKey: answer.cacheKey }) };
    const g = groundReply(answer.reply, cluster, ms, { method: 'model', version: EXTRACT_PROMPT.version, model: llm.model, cacheKey: answer.cacheKey }, draft);
    switch (g.kind) {
      case 'declined':
        return { draft: g.failure, record: recordReply(ctx, item, { outcome: 'declined', reason: g.failure.reason, cacheKey: answer.cacheKey }) };
      case 'rejected':
        return { draft, record: recordReply(ctx, item, { outcome: 'rejected', reason: g.reason, cacheKey: answer.cacheKey }) };
      case 'contract':
        // What the model invented is left out of the contract, and said so where the cluster starts.
        // (A template grounded in fewer than two members is only noted in the reply record.)
        for (const u of g.unsupported) ctx.report(makeDiagnostic('extract', 'model-text-unsupported', { file: item.file, line: item.line, message: `${item.item}: the model's ${u}; left out` }));
        const leftOut = [...g.dropped, ...g.unsupported];
        return { draft: g.contract, record: recordReply(ctx, item, { outcome: 'accepted', reason: leftOut.length ? `left out: ${leftOut.join('; ')}` : '', cacheKey: answer.cacheKey }) };
    }
  }));
  return { drafts: results.map((r) => r.draft), records: results.map((r) => r.record) };
}

export function unitIndex(parents: readonly Parent[]): Map<string, { unit: Unit; parent: Parent }> {
  const index = new Map<string, { unit: Unit; parent: Parent }>();
  for (const p of parents) for (const u of p.units) index.set(u.id, { unit: u, parent: p });
  return index;
}
