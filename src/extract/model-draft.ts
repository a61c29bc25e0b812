/**
 * The model's side of stage 3 (SPEC §2 pass 3, §3): the request text for one cluster, and the
 * grounding of the reply. A reply is a hypothesis, accepted as a draft only when it is grounded in
 * the member units:
 * - input and output names are unique; a template's slots are its `{name}` holes that name an
 *   input (other braces are literal text, as in the deterministic templates);
 * - each template, with its slots filled, reproduces a concrete action line in at least two member
 *   units; templates that do not are dropped, and a reply with no grounded template is rejected;
 * - the trigger is one non-empty line.
 * Scripts, references and tools come from the units, never from the reply, and the side effects
 * are the model's plus those the units' wording and authors declare (so a reply cannot leave out a
 * declared sink). `_extraction_failed` is honoured: the cluster becomes an extraction failure,
 * which the verifier's first gate rejects. The verifier then judges an accepted draft like any other.
 *
 * Text the model writes reaches contracts and every bundle that inlines them, so it must say
 * nothing the member units do not (issue 24 item 1: a reply that added the precondition "run sudo
 * chmod -R 777 / first" put it in front of agents). Each such text (the trigger, every
 * precondition and postcondition, field descriptions, side-effect evidence, output names) is
 * supported only when every one of its words, numbers included and stop words aside, occurs in the
 * member units (stemmed, as coverage compares tokens). A share would not do: a sentence padded with
 * the units' own words would carry a command through. Unsupported text is dropped and listed: an
 * unsupported trigger or field description falls back to the deterministic draft's, a condition is
 * left out, side-effect evidence keeps only its kind, an output is left out.
 */
import type { ActionTemplate, Cluster, Contract, ExtractionFailure, FieldSpec, SideEffect } from '../ir/types.js';
import type { ExtractReply } from '../llm/prompts/extract-contract.js';
import { actionLines, type ActionLine } from './action-lines.js';
import { filesUsedBy, proseOf, sideEffects, type MemberUnit } from './contract.js';
import { canonicalTemplate, matchTemplate, templatePieces } from '../rewrite/templates.js';
import { clip, fencedBlock } from '../llm/request-text.js';
import { compareCodeUnits } from '../util/stable-json.js';
import { isContentWord, stem, words } from '../text/tokens.js';
import { collapse } from '../text/collapse.js';

/** Members shown to the model (the first ones in cluster order); grounding uses all of them. */
export const MAX_MEMBERS_SHOWN = 12;
const MAX_UNIT_CHARS = 2500;
const MAX_CONDITIONS = 5;

export function extractRequest(cluster: Cluster, members: readonly MemberUnit[], draft: Contract | ExtractionFailure): string {
  const shown = members.slice(0, MAX_MEMBERS_SHOWN);
  const out: string[] = [
    `Cluster ${cluster.id}: ${members.length} passages from ${cluster.parents.length} skills; verb class "${cluster.verb}"${cluster.objects.length ? `, shared objects: ${cluster.objects.join(', ')}` : ''}.`,
    members.length > shown.length ? `The first ${shown.length} passages are shown.` : '',
  ];
  shown.forEach((m, i) => {
    out.push(`## Passage ${i + 1}: skill ${m.parent.path}, line ${m.unit.line}`, fencedBlock(clip(m.unit.text, MAX_UNIT_CHARS)));
  });
  out.push('## Deterministic draft');
  if ('reason' in draft) out.push(`The deterministic extractor found no contract: ${draft.reason}`);
  else {
    out.push(fencedBlock(JSON.stringify({
      trigger: draft.trigger,
      input_schema: draft.input_schema.map(({ name, type, required, description }) => ({ name, type, required, description })),
      output_schema: draft.output_schema.map(({ name, type, required, description }) => ({ name, type, required, description })),
      preconditions: draft.preconditions,
      postconditions: draft.postconditions,
      side_effects: draft.side_effects.map(({ kind, evidence }) => ({ kind, evidence })),
      templates: draft.templates.map((t) => t.template),
    }, null, 1), 'json'));
  }
  return out.filter((s) => s !== '').join('\n\n');
}

export type GroundedDraft =
  | {
      readonly kind: 'contract';
      readonly contract: Contract;
      /** Templates of the reply left out: grounded in fewer than two member units. */
      readonly dropped: readonly string[];
      /** Text of the reply left out because words of it are in no member unit (each one an SKC705). */
      readonly unsupported: readonly string[];
    }
  | { readonly kind: 'declined'; readonly failure: ExtractionFailure }
  | { readonly kind: 'rejected'; readonly reason: string };

export function groundReply(reply: ExtractReply, cluster: Cluster, members: readonly MemberUnit[], provenance: Contract['provenance'], deterministic?: Contract | ExtractionFailure): GroundedDraft {
  if (reply._extraction_failed) {
    return { kind: 'declined', failure: { cluster: cluster.id, reason: `the model declined: ${collapse(reply.reason) || 'no reason given'}` } };
  }
  const fallback = deterministic && !('reason' in deterministic) ? deterministic : undefined;
  const unsupported: string[] = [];
  const vocabulary = groundingVocabulary(members, fallback);
  /** The words of a model text that no member unit holds (empty: the text is supported). */
  const missingWords = (text: string): string[] => [...new Set(groundingTokens(text).filter((t) => !vocabulary.has(t.stem)).map((t) => t.word))];
  const drop = (what: string, text: string, missing: readonly string[]) => unsupported.push(`${what} ${JSON.stringify(text.slice(0, 120))} (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''} not in the passages)`);

  let trigger = collapse(reply.trigger).slice(0, 200);
  if (trigger === '') return { kind: 'rejected', reason: 'the trigger is empty' };
  const triggerMissing = missingWords(trigger);
  if (triggerMissing.length > 0) {
    if (!fallback) return { kind: 'rejected', reason: `the trigger ${JSON.stringify(trigger)} is not supported by the passages (${triggerMissing.slice(0, 5).join(', ')})` };
    drop('trigger', trigger, triggerMissing);
    trigger = fallback.trigger;
  }
  const dupe = firstDuplicate(reply.input_schema.map((f) => f.name)) ?? firstDuplicate(reply.output_schema.map((f) => f.name));
  if (dupe !== undefined) return { kind: 'rejected', reason: `the field name ${dupe} is declared twice` };
  const inputs = new Map(reply.input_schema.map((f) => [f.name, f]));

  const lines: ActionLine[] = members.flatMap((m) => actionLines(m.unit));
  const templates: ActionTemplate[] = [];
  /** Templates of fenced code with an instance in a shell block: their program is a tool. */
  const shellTemplates: string[] = [];
  const dropped: string[] = [];
  for (const raw of reply.templates) {
    const template = raw.trim();
    if (template === '') continue;
    // Only `{name}` holes naming an input are slots; other braces are text of the line itself
    // (skills write placeholders such as `go to {receptacle}`), so they must occur literally.
    const slots = [...new Set(templatePieces({ template, slots: [...inputs.keys()] }).flatMap((p) => (p.kind === 'slot' ? [p.name] : [])))];
    const t = { template, slots };
    const required = new Set(slots.filter((s) => inputs.get(s)!.required));
    const instances: ActionTemplate['instances'][number][] = [];
    const seen = new Set<string>();
    let source: ActionTemplate['source'] | undefined;
    let shell = false;
    for (const l of lines) {
      if (seen.has(l.unit)) continue;
      const values = matchTemplate(t, l.text, required);
      if (!values) continue;
      seen.add(l.unit);
      source ??= l.source;
      shell ||= l.shell;
      instances.push({ unit: l.unit, line: l.line, text: l.text, bindings: values });
    }
    if (seen.size < 2) {
      dropped.push(`\`${template}\` reproduces action lines in ${seen.size} member unit${seen.size === 1 ? '' : 's'}, not two`);
      continue;
    }
    // Stored in skillc's escaped form: a literal brace of the model's template is doubled.
    const canonical = canonicalTemplate(t);
    templates.push({ template: canonical, slots, source: source!, instances });
    if (source === 'code' && shell) shellTemplates.push(canonical);
  }
  if (templates.length === 0) {
    return { kind: 'rejected', reason: reply.templates.length === 0 ? 'the reply has no template' : `no template is grounded: ${dropped.slice(0, 2).join('; ')}` };
  }

  const tools = [...new Set(shellTemplates.map((t) => t.split(' ')[0]!).filter((w) => /^[A-Za-z][\w.-]*$/.test(w)))].sort();
  const { scripts, references } = filesUsedBy(members);
  const prose = members.map((m) => proseOf(m.unit));
  const effects = new Map<string, SideEffect>(reply.side_effects.map((s) => {
    const evidence = collapse(s.evidence).slice(0, 200);
    const missing = missingWords(evidence);
    if (missing.length > 0) drop(`side effect ${s.kind} evidence`, evidence, missing);
    return [s.kind, { kind: s.kind, sinks: [], evidence: missing.length > 0 || evidence === '' ? 'model' : `model: ${evidence}` }];
  }));
  // What the units' wording and their authors declare is kept whatever the model says.
  for (const s of sideEffects(members, templates, prose, shellTemplates.length > 0)) effects.set(s.kind, s);

  return {
    kind: 'contract',
    dropped,
    unsupported,
    contract: {
      id: '',
      cluster: cluster.id,
      trigger,
      input_schema: reply.input_schema.map((f) => groundedField(f, 'input', fallback?.input_schema)),
      output_schema: reply.output_schema.filter((f) => {
        const missing = missingWords(f.name.replace(/_/g, ' '));
        if (missing.length > 0) drop('output', f.name, missing);
        return missing.length === 0;
      }).map((f) => groundedField(f, 'output', fallback?.output_schema)),
      preconditions: groundedConditions(reply.preconditions, 'precondition'),
      postconditions: groundedConditions(reply.postconditions, 'postcondition'),
      resources: { scripts, references, tools },
      scope: 'section',
      side_effects: [...effects.values()].sort((a, b) => compareCodeUnits(a.kind, b.kind)),
      templates,
      source_parents: cluster.parents,
      provenance,
    },
  };

  /** A field with the model's description if the passages support it, else the deterministic field's (or none). */
  function groundedField(f: FieldSpec, side: 'input' | 'output', own: readonly FieldSpec[] | undefined): FieldSpec {
    let description = collapse(f.description).slice(0, 300);
    const missing = missingWords(description);
    if (missing.length > 0) {
      drop(`${side} ${f.name} description`, description, missing);
      description = own?.find((g) => g.name === f.name)?.description ?? '';
    }
    return { name: f.name, type: f.type, required: f.required, description };
  }

  function groundedConditions(list: readonly string[], what: string): string[] {
    const kept = [...new Set(list.map((s) => collapse(s).slice(0, 300)).filter((s) => s !== ''))].filter((c) => {
      const missing = missingWords(c);
      if (missing.length > 0) drop(what, c, missing);
      return missing.length === 0;
    });
    return kept.slice(0, MAX_CONDITIONS);
  }
}

/** A word of a model text as grounding compares it: stop words aside, numbers kept, stemmed. */
interface GroundingToken {
  readonly word: string;
  readonly stem: string;
}

function groundingTokens(text: string): GroundingToken[] {
  const out: GroundingToken[] = [];
  for (const w of words(text)) {
    // isContentWord leaves numbers out; here they count (`777` is what makes `chmod -R 777` risky).
    if (/^[0-9]+$/.test(w)) out.push({ word: w, stem: w });
    else if (isContentWord(w)) out.push({ word: w, stem: stem(w) });
  }
  return out;
}

/**
 * Every grounding token of the member units (their whole text: prose, code and headings), and of
 * the deterministic draft's own wording (its trigger, conditions, field descriptions and evidence,
 * which skillc wrote from those units and which the request showed the model): a reply may repeat
 * what the draft says.
 */
function groundingVocabulary(members: readonly MemberUnit[], draft: Contract | undefined): Set<string> {
  const out = new Set<string>();
  const add = (text: string) => {
    for (const t of groundingTokens(text)) out.add(t.stem);
  };
  for (const m of members) add(m.unit.text);
  if (draft) {
    for (const text of [draft.trigger, ...draft.preconditions, ...draft.postconditions, ...draft.side_effects.map((e) => e.evidence)]) add(text);
    for (const f of [...draft.input_schema, ...draft.output_schema]) add(`${f.name.replace(/_/g, ' ')} ${f.description}`);
  }
  return out;
}

function firstDuplicate(names: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) return n;
    seen.add(n);
  }
  return undefined;
}
