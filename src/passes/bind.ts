/**
 * Pass 5, bind (SPEC §2): call-site detection and deterministic Binding Extraction for the
 * auto-promoted contracts. Candidates are the member units of each promoted cluster and, elsewhere
 * in the library, units with the cluster's verb class whose action lines match the contract's
 * templates. Each candidate is bound by slot alignment and post-checked (bind/call-site.ts); a
 * unit claimed by several contracts keeps one (member before match, then more matched lines, then
 * the higher verifier score, then the id). Finally every invoke is type-checked against the
 * generated declarations, and a call-site that does not type-check is dropped. Every dropped
 * candidate is kept with its stage and reason. With --llm, the candidates that pass detection are
 * also judged by the model, one request per parent (bind/model-bindings.ts): its bindings replace
 * the aligner's when they pass the same post-checks, and should_invoke false drops the candidate.
 */
import type { CallSite, Contract, DroppedCallSite, ModelReplyRecord, Parent, Unit } from '../ir/types.js';
import { alignedBindings, checkBindings, detectUnit } from '../bind/call-site.js';
import { bindRequest, judgeBinding, MAX_BIND_REQUEST_CHARS, type BindCandidate } from '../bind/model-bindings.js';
import { BIND_PROMPT, type BindReplyItem } from '../llm/prompts/bind-call-sites.js';
import { recordReply } from '../llm/reply-record.js';
import { formatInvoke } from '../rewrite/invoke.js';
import { anchorOf } from '../rewrite/templates.js';
import { actionLines, type ActionLine } from '../extract/action-lines.js';
import { unitIndex } from './extract.js';
import { groupBy } from '../util/group-by.js';
import { compareCodeUnits } from '../util/stable-json.js';
import { candidateKeys, candidateMemo, keptOutcome, restoredOutcome, type CandidateOutcome } from './pass-memo.js';
import type { Pass, PassContext } from './pass.js';

interface Candidate {
  readonly contract: Contract;
  readonly parent: Parent;
  readonly unit: Unit;
  readonly detection: 'member' | 'match';
  readonly score: number;
}

export const bindPass: Pass = {
  name: 'bind',
  description: 'call-sites of promoted contracts: detection, slot-aligned bindings, post-check, round trip, type check',
  version: 1,
  requires: ['parents', 'frames', 'clusters', 'contracts', 'profiles'],
  provides: ['callSites', 'droppedCallSites', 'modelReplies'],
  async run(ir, ctx) {
    const profiles = new Map(ir.profiles!.map((p) => [p.cluster, p]));
    const promoted = ir.contracts!.filter((c) => profiles.get(c.cluster)?.decision === 'auto_promote');
    const clusters = new Map(ir.clusters!.map((c) => [c.id, c]));
    const index = unitIndex(ir.parents!);
    const frames = new Map(ir.frames!.map((f) => [f.unit, f]));

    const candidates: Candidate[] = [];
    const memberUnits = new Set<string>();
    for (const c of promoted) {
      const cluster = clusters.get(c.cluster)!;
      const score = profiles.get(c.cluster)!.score;
      for (const id of cluster.units) {
        const m = index.get(id)!;
        memberUnits.add(id);
        candidates.push({ contract: c, parent: m.parent, unit: m.unit, detection: 'member', score });
      }
    }
    // A section contract is looked for in units of its verb class; an action, in any unit.
    const byVerb = groupBy(promoted.filter((c) => c.scope !== 'action'), (c) => clusters.get(c.cluster)!.verb);
    const actions = promoted.filter((c) => c.scope === 'action');
    if (byVerb.size > 0 || actions.length > 0) {
      // A unit elsewhere is a candidate only if it holds some template's anchor text (a cheap
      // substring test before any alignment).
      // Anchors are numbered once across contracts (several share one: "use", "open").
      const anchorTexts: string[] = [];
      const anchorIds = new Map<string, number>();
      const anchors = new Map(
        promoted.map((c) => [
          c.id,
          c.templates.map(anchorOf).flatMap((a) => {
            if (a === '') return [];
            let id = anchorIds.get(a);
            if (id === undefined) anchorIds.set(a, (id = anchorTexts.push(a) - 1));
            return [id];
          }),
        ]),
      );
      const actionMembers = new Map(actions.map((c) => [c.id, new Set(clusters.get(c.cluster)!.units)]));
      // Whether an anchor occurs in the parent at all (0 not asked yet, 1 yes, 2 no): a unit's text
      // is a slice of its parent's, so an anchor the whole text lacks is in none of its units.
      const inParent = new Uint8Array(anchorTexts.length);
      for (const p of ir.parents!) {
        if (p.bounded || p.malicious) continue;
        inParent.fill(0);
        let whole: string | undefined;
        const consider = (c: Contract, u: Unit) => {
          for (const id of anchors.get(c.id)!) {
            if (inParent[id] === 0) inParent[id] = (whole ??= p.units.map((x) => x.text).join('')).includes(anchorTexts[id]!) ? 1 : 2;
            if (inParent[id] === 1 && u.text.includes(anchorTexts[id]!)) {
              candidates.push({ contract: c, parent: p, unit: u, detection: 'match', score: profiles.get(c.cluster)!.score });
              return;
            }
          }
        };
        for (const u of p.units) {
          const verb = frames.get(u.id)?.verb;
          if (verb && !memberUnits.has(u.id)) for (const c of byVerb.get(verb) ?? []) consider(c, u);
          for (const c of actions) if (!actionMembers.get(c.id)!.has(u.id)) consider(c, u);
        }
      }
    }
    const linesOf = new Map<string, ActionLine[]>();
    // Outcomes of candidates whose contract and parent are unchanged since a build that used the
    // cache are read back (pass-memo.ts).
    const memo = candidateMemo(ctx.cache);
    const keysOf = new Map(promoted.map((c) => [c.id, candidateKeys(c)]));
    const keptOrDecided = (x: Candidate, decide: () => CandidateOutcome): CandidateOutcome => {
      const key = keysOf.get(x.contract.id)!(x);
      const kept = memo!.get(key, (k) => restoredOutcome(k, x.contract) !== null);
      if (kept) return restoredOutcome(kept, x.contract)!;
      const outcome = decide();
      const k = keptOutcome(outcome, x.contract);
      if (k) memo!.put(key, k);
      return outcome;
    };

    const dropped: DroppedCallSite[] = [];
    const drop = (x: Candidate, stage: DroppedCallSite['stage'], reason: string) =>
      dropped.push({ unit: x.unit.id, parent: x.parent.path, file: x.parent.file, line: x.unit.line, contract: x.contract.id, detection: x.detection, stage, reason });

    // Detection and deterministic binding of every candidate.
    const detected: (BindCandidate & { x: Candidate })[] = [];
    candidates.forEach((x, i) => {
      if (x.parent.encoding === 'utf-8-invalid') {
        if (x.detection === 'member') drop(x, 'detect', 'SKILL.md is not valid UTF-8: rewriting it would change bytes that were not decoded');
        return;
      }
      const decide = (): CandidateOutcome => {
        let lines = linesOf.get(x.unit.id);
        if (!lines) linesOf.set(x.unit.id, (lines = actionLines(x.unit)));
        const detection = detectUnit(x.contract, x.parent, x.unit, lines);
        return detection.ok ? { detection, deterministic: checkBindings(x.contract, x.unit, detection.matched, alignedBindings(detection.matched)) } : { detection };
      };
      const { detection: d, deterministic } = memo ? keptOrDecided(x, decide) : decide();
      if (d.ok) detected.push({ x, contract: x.contract, unit: x.unit, matched: d.matched, deterministic: deterministic! });
      // A unit elsewhere that matches no template was never a candidate, and a member of an
      // action's cluster with no concrete line defines the action rather than calling it: neither
      // is worth a record.
      else if ((x.detection === 'member' && x.contract.scope !== 'action') || d.matched > 0) drop(x, d.stage, d.reason);
      if (i % 256 === 0 && !ctx.llm) ctx.progress(i, candidates.length);
    });

    memo?.save();

    const bound: { x: Candidate; bindings: Record<string, string>; actions: CallSite['actions']; binder: CallSite['binder'] }[] = [];
    const keepDeterministic = (c: BindCandidate & { x: Candidate }) => {
      if (c.deterministic.ok) bound.push({ x: c.x, bindings: c.deterministic.bindings, actions: c.deterministic.actions, binder: 'deterministic' });
      else drop(c.x, c.deterministic.stage, c.deterministic.reason);
    };
    let records: ModelReplyRecord[] | undefined;
    if (ctx.llm) {
      records = [];
      const judged = await modelBindings(detected, ctx);
      for (const { c, judgement, record } of judged) {
        records.push(record);
        if (judgement?.kind === 'accepted') bound.push({ x: c.x, bindings: judgement.check.bindings, actions: judgement.check.actions, binder: 'model' });
        else if (judgement?.kind === 'declined') drop(c.x, 'model', judgement.reason);
        else keepDeterministic(c);
      }
    } else {
      detected.forEach(keepDeterministic);
    }

    // One section contract per unit (its invoke stands for the whole section); calls of actions
    // are lines, and a section may hold several.
    const byUnit = groupBy(bound, (b) => (b.x.contract.scope === 'action' ? `${b.x.unit.id}\u0000${b.x.contract.id}` : b.x.unit.id));
    const chosen: typeof bound = [];
    for (const list of byUnit.values()) {
      list.sort((a, b) => rank(a.x) - rank(b.x) || b.actions.length - a.actions.length || b.x.score - a.x.score || compareCodeUnits(a.x.contract.id, b.x.contract.id));
      chosen.push(list[0]!);
      for (const other of list.slice(1)) drop(other.x, 'detect', `the unit invokes ${list[0]!.x.contract.id} instead`);
    }

    const { typeCheckInvokes } = await import('../typed/type-check.js');
    const keyOf = (b: (typeof chosen)[number]) => `${b.x.unit.id}\u0000${b.x.contract.id}`;
    const { typeScriptMemoOf } = await import('../typed/compile-memo.js');
    const failures = await typeCheckInvokes(promoted, chosen.map((b) => ({ key: keyOf(b), contract: b.x.contract.id, bindings: b.bindings })), undefined, typeScriptMemoOf(ctx.cache));
    const callSites: CallSite[] = [];
    for (const b of chosen) {
      const error = failures.get(keyOf(b));
      if (error !== undefined) {
        drop(b.x, 'type-check', error);
        continue;
      }
      callSites.push({
        unit: b.x.unit.id,
        parent: b.x.parent.path,
        file: b.x.parent.file,
        line: b.x.contract.scope === 'action' ? b.actions[0]!.line : b.x.unit.line,
        contract: b.x.contract.id,
        detection: b.x.detection,
        bindings: b.bindings,
        actions: b.actions,
        invoke: formatInvoke(b.x.contract.id, b.bindings, b.x.contract.input_schema.map((f) => f.name)),
        binder: b.binder,
      });
    }
    const order = new Map(ir.parents!.flatMap((p, pi) => p.units.map((u) => [u.id, pi * 1e6 + u.index] as const)));
    const byPosition = (a: { unit: string; contract: string }, b: { unit: string; contract: string }) => order.get(a.unit)! - order.get(b.unit)! || compareCodeUnits(a.contract, b.contract);
    callSites.sort(byPosition);
    dropped.sort(byPosition);
    ctx.progress(candidates.length, candidates.length);
    return { callSites, droppedCallSites: dropped, ...(records ? { modelReplies: [...(ir.modelReplies ?? []), ...records] } : {}) };
  },
};

/**
 * Binding Extraction with the model: one request per parent with candidates that passed
 * detection, all in flight at once (the service bounds concurrency). Returns every candidate with
 * the model's judgement (undefined: keep the deterministic result) and its record, in input order.
 */
async function modelBindings(detected: readonly (BindCandidate & { x: Candidate })[], ctx: PassContext) {
  const llm = ctx.llm!;
  const byParent = [...groupBy(detected, (c) => c.x.parent.path).values()];
  let done = 0;
  const perParent = await Promise.all(byParent.map(async (list) => {
    const parent = list[0]!.x.parent;
    const itemOf = (c: BindCandidate & { x: Candidate }) => ({ pass: 'bind' as const, item: `${c.unit.id} → ${c.contract.id}`, file: parent.file, line: c.unit.line });
    const user = bindRequest(parent, list);
    if (user.length > MAX_BIND_REQUEST_CHARS) {
      ctx.progress(++done, byParent.length);
      return list.map((c) => ({ c, judgement: undefined, record: recordReply(ctx, itemOf(c), { outcome: 'skipped', reason: `the request for ${parent.file} would be ${user.length} characters (limit ${MAX_BIND_REQUEST_CHARS})` }) }));
    }
    const answer = await llm.ask({ prompt: BIND_PROMPT, user });
    ctx.progress(++done, byParent.length);
    if (!answer.ok) return list.map((c) => ({ c, judgement: undefined, record: recordReply(ctx, itemOf(c), { outcome: 'failed', kind: answer.kind, reason: answer.message, cacheKey: answer.cacheKey }) }));
    const byKey = new Map<string, BindReplyItem>();
    const repeated = new Set<string>();
    for (const a of answer.reply.call_sites) {
      const key = a.candidate.trim().replace(/^candidate\s*/i, '');
      if (byKey.has(key)) repeated.add(key);
      byKey.set(key, a);
    }
    return list.map((c, i) => {
      const key = String(i + 1);
      const judgement = repeated.has(key) ? ({ kind: 'rejected', reason: 'the reply answers this candidate twice' } as const) : judgeBinding(c, byKey.get(key));
      const record = recordReply(ctx, itemOf(c), judgement.kind === 'accepted' ? { outcome: 'accepted', cacheKey: answer.cacheKey } : { outcome: judgement.kind, reason: judgement.reason, cacheKey: answer.cacheKey });
      return { c, judgement: judgement.kind === 'rejected' ? undefined : judgement, record };
    });
  }));
  return perParent.flat();
}

function rank(x: Candidate): number {
  return x.detection === 'member' ? 0 : 1;
}
