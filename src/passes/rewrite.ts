/**
 * Pass 6, rewrite (SPEC §2): first the plan (rewrite/plan.ts): a call-site is rewritten only when
 * its invoke reproduces one code block of its unit token for token, the block is not in a passage
 * that is never rewritten, and its contract pays for itself in tokens; the others are dropped with
 * their stage and reason. Then, for every parent with call-sites left, the invoke lines and the
 * marker are spliced into the original text by offsets. Post-checks per parent: the invokes parsed
 * back out of the new text are exactly its call-sites (every invoked contract is still
 * referenced), and every word of the new text occurs in the original parent, in an invoked
 * contract's id or input names, or in skillc's own marker.
 *
 * Rewrite Cleanup (lines elsewhere that spell out an invoked procedure with another verb) only
 * reports what it finds (SKC503): rewording a line into an invoke would change what the skill says.
 *
 * With --llm, each rewritten parent is then sent to the model once (Rewrite Cleanup with a model,
 * rewrite/model-cleanup.ts). Its edits are spliced into the original text next to the
 * deterministic ones and must pass the same post-check and keep every section reachable;
 * otherwise the deterministic rewrite stands and the report says why.
 */
import type { CallSite, Cleanup, ModelReplyRecord, Parent, PassageUse, RewrittenParent } from '../ir/types.js';
import { makeDiagnostic, type Diagnostic } from '../ir/diagnostics.js';
import { loadTokenCounter } from '../text/bpe.js';
import { planRewrites, type PlannedPassage, type ReplacedSpan } from '../rewrite/plan.js';
import { loadVerbLexicon } from '../propose/lexicon.js';
import { cleanupEdits, type InvokedContract } from '../rewrite/cleanup.js';
import { parseInvokes } from '../rewrite/invoke.js';
import { cleanupRequest, MAX_CLEANUP_TEXT_CHARS, modelCleanupEdits, unreachableUnit } from '../rewrite/model-cleanup.js';
import { markerLine, replacedFileName, REPLACED_FILE, skeletonEdits } from '../rewrite/rewrite-parent.js';
import { applyEdits, type Edit } from '../rewrite/splice.js';
import { CLEANUP_PROMPT } from '../llm/prompts/rewrite-cleanup.js';
import { recordReply } from '../llm/reply-record.js';
import type { Pass, PassContext } from './pass.js';

/** A section of a skeleton whose body is a reference to a shared passage. */
interface PassageReference {
  readonly id: string;
  readonly unit: string;
  readonly bindings: Readonly<Record<string, string>>;
  readonly inputs: readonly string[];
}
import { groupBy } from '../util/group-by.js';

/** One parent after the deterministic rewrite, with what the model pass needs to go on from it. */
interface Rewritten {
  readonly parent: Parent;
  readonly invoked: readonly InvokedContract[];
  /** Sections whose body is a reference to a shared passage. */
  readonly references: readonly PassageReference[];
  /** Diagnostics about this parent, reported once its rewrite stands (a plan may be made twice). */
  readonly notes: readonly Diagnostic[];
  readonly original: string;
  readonly edits: readonly Edit[];
  readonly text: string;
  readonly cleanups: readonly Cleanup[];
  readonly replacedFile: string;
}

export const rewritePass: Pass = {
  name: 'rewrite',
  description: 'invoke lines spliced into each touched parent by offsets; Rewrite Cleanup (deterministic, and with --llm a model); post-checks',
  version: 1,
  requires: ['parents', 'clusters', 'contracts', 'callSites'],
  provides: ['rewrites', 'modelReplies', 'callSites', 'droppedCallSites', 'passageUse'],
  async run(ir, ctx) {
    const lexicon = loadVerbLexicon();
    const contracts = new Map(ir.contracts!.map((c) => [c.id, c]));
    const verbs = new Map(ir.clusters!.map((c) => [c.id, c.verb]));
    const count = await loadTokenCounter();
    // A failure inside skillc on one parent leaves that parent as it is (SKC502; its call-sites
    // dropped at stage 'rewrite', its passage members unreferenced), and the plan is made again
    // without it: a passage or contract that then has too few users must not stay behind.
    const excluded = new Map<string, string>();
    let plan!: ReturnType<typeof planRewrites>;
    let spans!: Map<string, ReplacedSpan>;
    let planned!: CallSite[];
    let byParent!: Map<string, CallSite[]>;
    let referencesByParent!: Map<string, PlannedPassage[]>;
    let done: Rewritten[] = [];
    for (let round = 0; ; round++) {
      plan = planRewrites(ir.parents!, contracts, ir.callSites!, count, ir.passages ?? [], excluded);
      spans = new Map(plan.planned.map((p) => [spanKey(p.callSite), p.span]));
      planned = plan.planned.map((p) => p.callSite);
      byParent = groupBy(planned, (cs) => cs.parent);
      referencesByParent = groupBy(plan.referenced, (r) => r.member.parent);
      const parents = ir.parents!.filter((p) => byParent.has(p.path) || referencesByParent.has(p.path));
      const failedNow: { parent: Parent; why: string }[] = [];
      done = parents.flatMap((parent, i) => {
        try {
          return [rewriteOne(parent, i, parents.length)];
        } catch (err) {
          failedNow.push({ parent, why: err instanceof Error ? err.message : String(err) });
          return [];
        }
      });
      for (const f of failedNow) {
        ctx.report(makeDiagnostic('rewrite', 'parent-not-rewritten', { file: f.parent.file, message: `not rewritten: ${f.why}` }));
        excluded.set(f.parent.path, `rewriting the skill failed inside skillc: ${f.why}`);
      }
      if (failedNow.length === 0 || round >= 3) break;
    }
    for (const r of done) for (const d of r.notes) ctx.report(d);
    function rewriteOne(parent: Parent, i: number, total: number): Rewritten {
      const sites = byParent.get(parent.path) ?? [];
      const refs = referencesByParent.get(parent.path) ?? [];
      const references: PassageReference[] = refs.map((r) => ({ id: r.passage.id, unit: r.member.unit, bindings: r.member.bindings, inputs: r.passage.slots }));
      const invoked: InvokedContract[] = sites.map((cs) => {
        const contract = contracts.get(cs.contract)!;
        return { callSite: cs, contract, verb: verbs.get(contract.cluster)! };
      });
      const replacedFile = replacedFileName(parent);
      const notes: Diagnostic[] = [];
      if (replacedFile !== REPLACED_FILE) notes.push(makeDiagnostic('rewrite', 'replaced-file-name-taken', { file: parent.file, message: `the skill already has ${REPLACED_FILE}; the original text of rewritten sections goes to ${replacedFile}` }));
      const skeleton = skeletonEdits(parent, [...sites.map((cs) => ({ invoke: cs.invoke, span: spans.get(spanKey(cs))! })), ...refs.map((r) => ({ invoke: r.invoke, span: r.span }))], replacedFile);
      // Contradicting lines are reported, not rewritten: the invoke would not say what they say.
      for (const c of cleanupEdits(parent, invoked, lexicon).cleanups) {
        notes.push(makeDiagnostic('rewrite', 'contradicts-contract', { file: parent.file, line: c.line, message: `"${c.before}" spells out ${c.contract} with another verb than its template (${c.after}); left as written` }));
      }
      const cleanups: Cleanup[] = [];
      const edits = skeleton.edits;
      const text = applyEdits(skeleton.original, edits);
      const problem = postCheck(skeleton.original, text, invoked, replacedFile, false, references);
      if (problem !== null) throw new Error(`the skeleton fails its post-check: ${problem}`);
      if (!ctx.llm) ctx.progress(i + 1, total);
      return { parent, invoked, references, notes, original: skeleton.original, edits, text, cleanups, replacedFile };
    }

    let records: ModelReplyRecord[] | undefined;
    if (ctx.llm) ({ done, records } = await withModel(done, ctx));

    const rewrites: RewrittenParent[] = done.map((r) => {
      for (const c of r.cleanups) {
        const why = c.by === 'model' ? "the model's Rewrite Cleanup" : `it contradicts ${c.contract} (its template uses another verb)`;
        ctx.report(makeDiagnostic('rewrite', 'rewrite-cleanup', { file: r.parent.file, line: c.line, message: `"${c.before}" rewritten as ${c.after}: ${why}` }));
      }
      return {
        parent: r.parent.path,
        text: r.text,
        callSites: r.invoked.map((i) => i.callSite.unit),
        passages: r.references.map((x) => ({ unit: x.unit, passage: x.id })),
        cleanups: r.cleanups,
        replacedFile: r.replacedFile,
        cleanedUnits: [...new Set(r.cleanups.map((c) => c.unit))],
      };
    });
    // A skill that failed in the last round too (it should not) is left as it is.
    const rewritten = new Set(done.map((r) => r.parent.path));
    const callSites = planned.filter((cs) => rewritten.has(cs.parent)).map((cs) => ({ ...cs, replaced: spans.get(spanKey(cs))! }));
    const droppedCallSites = [
      ...(ir.droppedCallSites ?? []),
      ...plan.dropped,
      ...planned.filter((cs) => !rewritten.has(cs.parent)).map((cs) => ({ unit: cs.unit, parent: cs.parent, file: cs.file, line: cs.line, contract: cs.contract, detection: cs.detection, stage: 'rewrite' as const, reason: excluded.get(cs.parent) ?? 'rewriting the skill failed inside skillc' })),
    ];
    const passageUse: PassageUse[] = [
      ...plan.referenced.map((r) => (rewritten.has(r.member.parent) ? { passage: r.passage.id, unit: r.member.unit, referenced: true, reason: `saves ${r.saves} tokens` } : { passage: r.passage.id, unit: r.member.unit, referenced: false, reason: excluded.get(r.member.parent) ?? 'rewriting the skill failed inside skillc' })),
      ...plan.unreferenced.map((u) => ({ passage: u.passage, unit: u.member.unit, referenced: false, reason: u.reason })),
    ];
    return { rewrites, callSites, droppedCallSites, passageUse, ...(records ? { modelReplies: [...(ir.modelReplies ?? []), ...records] } : {}) };
  },
};

/** One Rewrite Cleanup request per rewritten parent, all in flight at once; results in parent order. */
async function withModel(rewritten: readonly Rewritten[], ctx: PassContext): Promise<{ done: Rewritten[]; records: ModelReplyRecord[] }> {
  const llm = ctx.llm!;
  let finished = 0;
  const results = await Promise.all(rewritten.map(async (r): Promise<[Rewritten, ModelReplyRecord]> => {
    const item = { pass: 'rewrite' as const, item: r.parent.path, file: r.parent.file, line: 1 };
    if (r.text.length > MAX_CLEANUP_TEXT_CHARS) {
      ctx.progress(++finished, rewritten.length);
      return [r, recordReply(ctx, item, { outcome: 'skipped', reason: `the rewritten skill has ${r.text.length} characters (limit ${MAX_CLEANUP_TEXT_CHARS})` })];
    }
    const answer = await llm.ask({ prompt: CLEANUP_PROMPT, user: cleanupRequest(r.parent, r.text, r.invoked) });
    ctx.progress(++finished, rewritten.length);
    if (!answer.ok) return [r, recordReply(ctx, item, { outcome: 'failed', kind: answer.kind, reason: answer.message, cacheKey: answer.cacheKey })];
    const reject = (reason: string): [Rewritten, ModelReplyRecord] => [r, recordReply(ctx, item, { outcome: 'rejected', reason, cacheKey: answer.cacheKey })];
    const m = modelCleanupEdits(r.parent, r.original, r.edits, r.text, r.invoked, answer.reply);
    if (!m.ok) return reject(m.reason);
    if (m.edits.length === 0) return [r, recordReply(ctx, item, { outcome: 'accepted', reason: 'no edits', cacheKey: answer.cacheKey })];
    const text = applyEdits(r.original, [...r.edits, ...m.edits]);
    const problem = postCheck(r.original, text, r.invoked, r.replacedFile, true, r.references) ?? unreachableUnit(r.parent, text);
    if (problem !== null) return reject(problem);
    return [{ ...r, text, edits: [...r.edits, ...m.edits], cleanups: [...r.cleanups, ...m.cleanups].sort((a, b) => a.line - b.line) }, recordReply(ctx, item, { outcome: 'accepted', reason: `${m.edits.length} edit${m.edits.length === 1 ? '' : 's'}`, cacheKey: answer.cacheKey })];
  }));
  return { done: results.map((x) => x[0]), records: results.map((x) => x[1]) };
}

/**
 * Null when the rewritten text passes, else what is wrong. With `extraInvokes`, invokes beyond the
 * call-sites' own (Rewrite Cleanup by a model may bind other values) are allowed as long as they
 * name contracts the parent invokes.
 */
export function postCheck(original: string, rewritten: string, invoked: readonly InvokedContract[], replacedFile: string, extraInvokes = false, references: readonly PassageReference[] = []): string | null {
  const found = parseInvokes(rewritten);
  const expected = [
    ...invoked.map((i) => ({ id: i.contract.id, bindings: i.callSite.bindings, inputs: i.contract.input_schema.map((f) => f.name), where: i.callSite.unit })),
    ...references.map((r) => ({ id: r.id, bindings: r.bindings, inputs: r.inputs, where: r.unit })),
  ];
  for (const e of expected) {
    if (!found.some((f) => f.contract === e.id && sameBindings(f.bindings, e.bindings))) return `the invoke of ${e.id} for ${e.where} is missing`;
  }
  for (const f of found) if (!expected.some((e) => e.id === f.contract)) return `an invoke of ${f.contract}, which this parent does not call`;
  if (!extraInvokes) {
    // The deterministic rewrite only ever writes a call-site's or a reference's own invoke.
    for (const f of found) if (!expected.some((e) => e.id === f.contract && sameBindings(f.bindings, e.bindings))) return `an invoke of ${f.contract} with bindings no call-site has`;
  }
  const allowed = new Set(words(original));
  for (const w of words(markerLine(expected.length, replacedFile))) allowed.add(w);
  // Binding values are pieces of the original (a slug's words, `capsule` of `capsule_crm`).
  for (const e of expected) for (const w of words(`invoke ${e.id} ${e.inputs.join(' ')} ${Object.values(e.bindings).join(' ')}`)) allowed.add(w);
  const added = [...new Set(words(rewritten))].filter((w) => !allowed.has(w));
  return added.length === 0 ? null : `words that occur neither in the parent nor in its contracts: ${added.slice(0, 5).join(', ')}`;
}

function sameBindings(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/**
 * The words of a text as `text.match(/[\p{L}\p{N}_]+/gu)` gives them (runs of letters, numbers and
 * '_', by code point), found by a scan: the post-check splits every rewritten skill and its
 * original, and the Unicode expression was the larger part of its cost.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    let width = 1;
    let inWord: boolean;
    if (c < 128) inWord = ASCII_WORD[c] === 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      width = 2;
      inWord = LETTER_OR_NUMBER.test(text.slice(i, i + 2));
    } else inWord = bmpWordChar(c);
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(text.slice(start, i));
      start = -1;
    }
    i += width;
  }
  if (start >= 0) out.push(text.slice(start));
  return out;
}

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
/** 1 for [A-Za-z0-9_]. */
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, c) => (/[A-Za-z0-9_]/.test(String.fromCharCode(c)) ? 1 : 0));
/** Per BMP code unit: 0 not yet asked, 1 a letter or number, 2 neither (a lone surrogate is neither: category Cs). */
const BMP_WORD = new Uint8Array(0x10000);

function bmpWordChar(c: number): boolean {
  let known = BMP_WORD[c]!;
  if (known === 0) BMP_WORD[c] = known = LETTER_OR_NUMBER.test(String.fromCharCode(c)) ? 1 : 2;
  return known === 1;
}

/** A call-site's key among the planned spans: a unit may hold calls of several actions. */
function spanKey(cs: { readonly unit: string; readonly contract: string }): string {
  return `${cs.unit}\u0000${cs.contract}`;
}
