/**
 * Deterministic contract extraction for one cluster (SPEC §2 pass 3, §4). The members' action
 * lines are grouped by shape and anti-unified into templates; template slots become the typed
 * input_schema (output flags also the output_schema); the trigger is the members' most common
 * heading; pre/postconditions are the members' sentences that say what is required or produced;
 * resources are the scripts, references and tools they use; side effects are what their wording
 * and structure declare, plus what every source parent's author declares in
 * `metadata.side-effects`. A cluster whose members share no action line fails with a reason.
 */
import type { ActionTemplate, Cluster, Contract, ExtractionFailure, FieldSpec, Parent, SideEffect, SideEffectKind, TemplateInstance, Unit } from '../ir/types.js';
import { authorTemplateOf, canonicalSlotName, matchConcrete } from './author-templates.js';
import { matchTemplate } from '../rewrite/templates.js';
import { actionLines, type ActionLine } from './action-lines.js';
import { antiUnify, groupLines, type AntiUnified } from './anti-unify.js';
import { GENERIC_SLOT_NAMES, shapeSlot } from './slots.js';
import { linkedScripts } from '../propose/frame.js';
import { loadVerbLexicon } from '../propose/lexicon.js';
import { declaredSideEffects } from '../risk/declarations.js';
import { escapeTemplateText } from '../rewrite/templates.js';

export const EXTRACT_VERSION = 2;
const MAX_TEMPLATES = 8;
const INTERPRETERS = /^(python[23]?|node|bash|sh|zsh|ruby|deno|bun|tsx|ts-node|pwsh|powershell|perl|php|uv|npx|bunx|Rscript|java|go)$/;
const MAX_CONDITIONS = 3;

export interface MemberUnit {
  readonly unit: Unit;
  readonly parent: Parent;
}

/**
 * What of a cluster a draft is made from: its identity, members, origin and an author template.
 * Not its similarity scores (minLinkCosine, which moves with the library's TF-IDF weights) nor its
 * verb and objects: the draft is a function of these fields and the members alone, which lets a
 * build keep drafts by them (passes/pass-memo.ts). The type keeps the extractor to them.
 */
export type DraftInput = Pick<Cluster, 'id' | 'units' | 'parents' | 'origin' | 'template'>;

/** The fields of `cluster` a draft is made from, and nothing else. */
export function draftInputOf(cluster: Cluster): DraftInput {
  return { id: cluster.id, units: cluster.units, parents: cluster.parents, origin: cluster.origin, ...(cluster.template ? { template: cluster.template } : {}) };
}

export function extractContract(cluster: DraftInput, members: readonly MemberUnit[]): Contract | ExtractionFailure {
  if (cluster.origin === 'author-template') return extractActionContract(cluster, members);
  // A line with the authors' own placeholders that several members write alike (`go to
  // {receptacle}`) defines an action rather than doing one: it is an author template's
  // (propose/template-clusters.ts), and anti-unified here it would give a template of templates.
  const all = members.flatMap((m) => actionLines(m.unit));
  const keyOf = new Map(all.map((l) => [l, authorTemplateOf(l)?.key] as const));
  const unitsOf = new Map<string, Set<string>>();
  for (const [l, k] of keyOf) if (k !== undefined) unitsOf.set(k, (unitsOf.get(k) ?? new Set()).add(l.unit));
  const lines = all.filter((l) => {
    const k = keyOf.get(l);
    return k === undefined || unitsOf.get(k)!.size < 2;
  });
  if (all.length === 0) return { cluster: cluster.id, reason: 'no action lines: no member has fenced code, a command span or a numbered step' };
  if (lines.length === 0) return { cluster: cluster.id, reason: "no action lines but the authors' own templates, which are proposed on their own" };
  const shaped = groupLines(lines)
    .map((g) => ({ g, units: new Set(g.lines.map((l) => l.unit)) }))
    .filter((x) => x.units.size >= 2)
    // A template needs a real constant (a command, a tool, a word), not just quotes and brackets.
    .filter((x) => x.g.lines[0]!.tokens.some((t) => /[A-Za-z]{2}/.test(t)))
    .map((x) => {
      // One instance per unit: its first line of this shape.
      const seen = new Set<string>();
      let inst: ActionLine[] = x.g.lines.filter((l) => !seen.has(l.unit) && (seen.add(l.unit), true));
      const align = (ls: readonly ActionLine[]) => bareSlots(antiUnify(ls.map((l) => l.tokens), ls.map((l) => l.spaced), x.g.source === 'code' && x.g.lines[0]!.shell));
      let au = align(inst);
      // A line whose value keeps quotes the others lack (`"$f"` beside `in.mp4`) passes a shell
      // expression, not a value: it is no instance, and the rest are aligned again without it.
      const quoted = inst.filter((_, i) => au.fillers[i]!.some((v) => /^["'`]|["'`]$/.test(v)));
      if (quoted.length > 0 && inst.length - quoted.length >= 2) {
        inst = inst.filter((l) => !quoted.includes(l));
        au = align(inst);
      }
      return { ...x, inst, units: new Set(inst.map((l) => l.unit)), au };
    })
    .filter((x) => x.units.size >= 2)
    // A slot whose values differ only in punctuation (`→` in one member, `->` in another;
    // `coverage` and `coverage"`) is no input: the members write the same line in other typography.
    .filter((x) => !Array.from({ length: x.au.slotCount }, (_, s) => s).some((s) => new Set(x.au.fillers.map((f) => wordsOnly(f[s] ?? ''))).size === 1))
    .filter((x) => x.g.source !== 'step' || actionStep(x.inst, x.au))
    // A program name alone before a slot of whole command tails (`uv {x}` over `uv pip install a`
    // and `uv run b.py`) is no procedure: its slot holds different commands.
    .filter((x) => x.au.pieces.filter((p) => p.kind === 'const' && /[A-Za-z]{2}/.test(p.token)).length > 1 || x.au.fillers.every((f) => f.every((v) => !/\s/.test(v) || /^[A-Za-z][\w-]*( [A-Za-z][\w-]*)? \d+$/.test(v))))
    // An interpreter before a slot of different scripts or programs (`python {script} <path>`,
    // `pwsh {script} -BuildId …`): the slot holds what does the work, so the members run
    // different procedures that only share how they are started.
    .filter((x) => !(x.au.pieces[0]?.kind === 'const' && INTERPRETERS.test(x.au.pieces[0].token) && x.au.pieces[1]?.kind === 'slot' && new Set(x.au.fillers.map((f) => f[(x.au.pieces[1] as { index: number }).index])).size > 1))
    .sort((a, b) => b.units.size - a.units.size || lines.indexOf(a.g.lines[0]!) - lines.indexOf(b.g.lines[0]!));
  // An inline span of one word that never varies (`RUBE_SEARCH_TOOLS`, `pytest`) names a tool or a
  // command in a sentence; the sentence's step is the action. It is a tool, not a template.
  const named = shaped.filter((x) => x.g.source === 'inline' && x.au.slotCount === 0 && x.au.pieces.length === 1);
  const groups = withoutVariants(inSourceOrder(stepsTakenTogether(shaped.filter((x) => !named.includes(x))).slice(0, MAX_TEMPLATES)));
  if (groups.length === 0) return { cluster: cluster.id, reason: `no shared action: none of the ${lines.length} action lines is the same statement in two member units` };

  const inputs: FieldSpec[] = [];
  const outputs: FieldSpec[] = [];
  // Values per slot name and unit, so a later template's slot with the same role (the same name,
  // the same value in every unit that fills both) is the same input, not a numbered copy.
  const valuesByName = new Map<string, Map<string, string>>();
  // Every slot's shape first, so a slot whose values another slot repeats in every unit (`git
  // clone {url} {x}` then `cd {x}`) takes the more telling of their names.
  const shapes = groups.map(({ g, inst, au }) =>
    Array.from({ length: au.slotCount }, (_, s) => {
      const at = au.pieces.findIndex((p) => p.kind === 'slot' && p.index === s);
      const before: string[] = [];
      for (let k = at - 1; k >= 0 && before.length < 6; k--) {
        const p = au.pieces[k]!;
        if (p.kind !== 'const') break;
        before.push(p.token);
      }
      const reach = au.pieces.slice(0, at).flatMap((p) => (p.kind === 'const' ? [p.token] : [])).reverse();
      const next = au.pieces[at + 1];
      const values = au.fillers.map((f) => f[s]!);
      const leading = au.pieces.slice(0, at).filter((p) => p.kind === 'const').length;
      const shape = shapeSlot({ before, reach, after: next?.kind === 'const' ? next.token : undefined, prose: g.source !== 'code' || !g.lines[0]!.shell, leading }, values);
      return { shape, values, byUnit: new Map(inst.map((l, i) => [l.unit, values[i]!] as const)) };
    }),
  );
  const flat = shapes.flat();
  const preferred = (x: (typeof flat)[number]) => {
    const mates = flat.filter((y) => y === x || sameRole(y.byUnit, x.byUnit));
    const telling = (y: (typeof flat)[number]) => !y.shape.byKind && !GENERIC_SLOT_NAMES.has(y.shape.name);
    return (mates.find(telling) ?? mates.find((y) => !GENERIC_SLOT_NAMES.has(y.shape.name)) ?? x).shape.name;
  };
  const templates: ActionTemplate[] = groups.map(({ g, inst, au }, gi) => {
    const names: string[] = [];
    for (let s = 0; s < au.slotCount; s++) {
      const { shape: own, values, byUnit } = shapes[gi]![s]!;
      const shape = { ...own, name: preferred(shapes[gi]![s]!) };
      const taken = (n: string) => names.includes(n) || (valuesByName.has(n) && !sameRole(valuesByName.get(n)!, byUnit));
      let name = shape.name;
      for (let k = 2; taken(name); k++) name = `${shape.name}_${k}`;
      names.push(name);
      if (valuesByName.has(name)) {
        for (const [u, v] of byUnit) if (v !== '' && !valuesByName.get(name)!.has(u)) valuesByName.get(name)!.set(u, v);
        continue;
      }
      valuesByName.set(name, new Map([...byUnit].filter(([, v]) => v !== '')));
      const examples = [...new Set(values.filter((v) => v !== ''))].slice(0, 3).map((v) => `\`${v}\``).join(', ');
      // In a numbered step a value of several words is a phrase, not a list.
      const type = g.source === 'step' && shape.type === 'list' && !values.some((v) => v.includes(',')) ? 'string' : shape.type;
      const field: FieldSpec = { name, type, required: values.every((v) => v !== ''), description: `${shape.output ? 'where the result is written' : 'varies across source units'}; seen: ${examples || '(empty)'}` };
      inputs.push(field);
      if (shape.output) outputs.push({ ...field, description: `file written by the action; seen: ${examples}` });
    }
    // Braces of the line itself are doubled, so they can never be read as a slot.
    const template = au.pieces.map((p, i) => (i > 0 && p.spaced ? ' ' : '') + (p.kind === 'const' ? escapeTemplateText(p.token) : `{${names[p.index]}}`)).join('');
    return {
      template,
      slots: [...new Set(names)],
      source: g.source,
      instances: inst.map((l, i) => ({ unit: l.unit, line: l.line, text: l.text, bindings: Object.fromEntries(names.map((n, s) => [n, au.fillers[i]![s]!])) })),
    };
  });

  if (inputs.length === 0) {
    return { cluster: cluster.id, reason: `no varying slot: the ${templates.length} shared action lines are identical in every member, so there is nothing to bind (a repeated passage, not a callable procedure)` };
  }

  const trigger = modalHeading(members);
  const prose = members.map((m) => proseOf(m.unit));
  const tools = [...new Set([...groups, ...named].flatMap(({ g, au }) => {
    const first = au.pieces[0]?.kind === 'const' ? au.pieces[0].token : '';
    // A tool is a shell command's program or an UPPER_CASE tool name (MCP tools and the like).
    return (g.source === 'code' && g.lines[0]!.shell && /^[A-Za-z][\w.-]*$/.test(first)) || /^[A-Z][A-Z0-9_]{3,}$/.test(first) ? [first] : [];
  }))].sort();
  const { scripts, references } = filesUsedBy(members);

  return {
    id: '',
    cluster: cluster.id,
    trigger,
    input_schema: inputs,
    output_schema: outputs,
    preconditions: conditionsOf(members, prose, PRECONDITION),
    postconditions: conditionsOf(members, prose, POSTCONDITION),
    resources: { scripts, references, tools },
    side_effects: sideEffects(members, templates, prose, groups.some(({ g }) => g.source === 'code' && g.lines[0]!.shell)),
    templates,
    scope: 'section',
    source_parents: cluster.parents,
    provenance: { method: 'deterministic', version: EXTRACT_VERSION },
  };
}

/**
 * The contract of an author template's cluster (issue 19 item 1): the template as the authors
 * wrote it (placeholders as slots under their spelt-out names), its instances the members'
 * concrete lines that match it, with bindings from the alignment. Its scope is one action.
 */
export function extractActionContract(cluster: DraftInput, members: readonly MemberUnit[]): Contract | ExtractionFailure {
  const t = cluster.template;
  if (!t) return { cluster: cluster.id, reason: 'an author template cluster without its template' };
  const shape = { template: t.template, slots: t.slots };
  const instances: TemplateInstance[] = [];
  const seen = new Set<string>();
  for (const m of members) {
    for (const line of actionLines(m.unit)) {
      if (seen.has(m.unit.id) || authorTemplateOf(line)) continue;
      const values = matchConcrete(shape, line.text);
      if (!values) continue;
      seen.add(m.unit.id);
      instances.push({ unit: m.unit.id, line: line.line, text: line.text, bindings: values });
    }
  }
  const inputs: FieldSpec[] = t.slots.map((name) => {
    const values = instances.map((i) => i.bindings[name] ?? '').filter((v) => v !== '');
    const examples = [...new Set(values)].slice(0, 3).map((v) => `\`${v}\``).join(', ');
    const spelt = [...new Set(t.spellings.flatMap((s) => s.split(' ')))].filter((w) => canonicalSlotName(w.replace(/^[{<[$]+|[}>\]]+$/g, '')) === name.replace(/_\d+$/, '')).slice(0, 4);
    // A placeholder stands for one value: `blast furnace` and `drawer 2` are names, not lists.
    const kind = shapeSlot(undefined, values).type;
    return { name, type: kind === 'list' ? 'string' : kind, required: true, description: `named by the authors${spelt.length ? ` (${spelt.map((w) => `\`${w}\``).join(', ')})` : ''}${examples ? `; seen: ${examples}` : ''}` };
  });
  const prose = members.map((m) => proseOf(m.unit));
  const { scripts, references } = filesUsedBy(members);
  const template: ActionTemplate = { template: t.template, slots: t.slots, source: t.source, instances };
  return {
    id: '',
    cluster: cluster.id,
    trigger: t.template.replace(/\{\{|\}\}/g, '').replace(/\{([A-Za-z_]\w*)\}/g, (_, n: string) => n.replace(/_\d+$/, '').replace(/_/g, ' ')),
    input_schema: inputs,
    output_schema: [],
    preconditions: conditionsOf(members, prose, PRECONDITION, actionWords(t.template)),
    postconditions: conditionsOf(members, prose, POSTCONDITION, actionWords(t.template)),
    resources: { scripts, references, tools: [] },
    // An action is one line of sections that describe many (an ALFWorld skill's "Execute the task
    // action", a skill named item-fetcher): the wording that says what it does is its own line's.
    side_effects: sideEffects(members, [template], [t.template.replace(/\{\{|\}\}/g, '').replace(/\{[A-Za-z_]\w*\}/g, ' ')], false),
    templates: [template],
    scope: 'action',
    source_parents: cluster.parents,
    provenance: { method: 'deterministic', version: EXTRACT_VERSION },
  };
}

/**
 * A slot value's words (letters and digits, lower case), split where punctuation was: what is left
 * when typography is taken out. Punctuation still parts words (`==1.10` is not `==11.0`), and a
 * value that is a path of punctuation stays (`cd ..` is not `cd .`); other punctuation goes (`→`
 * is `->`, and a code comment with an ellipsis is nothing).
 */
export function wordsOnly(value: string): string {
  const words = value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  if (words !== '') return words;
  // Only a path of dots, slashes and tildes is still a value; any other punctuation is typography.
  const bare = value.trim();
  return /^[./\\~]+$/.test(bare) ? bare : '';
}

/**
 * Whether a template of numbered steps is an action with parameters rather than a sentence that
 * varies: it starts with a verb (the lexicon's, or a lower-case word in a short step such as
 * `pick up {object}`), and every instance fills every slot — a slot some steps leave empty is
 * words inserted into prose, which the passages pass states once, not an input.
 */
function actionStep(inst: readonly ActionLine[], au: AntiUnified): boolean {
  if (au.fillers.some((f) => f.some((v) => v === ''))) return false;
  const lexicon = loadVerbLexicon();
  return inst.every((l) => {
    const at = mainClause(l.tokens);
    if (at < 0) return false;
    const w = (l.tokens[at] ?? '').replace(/[*_`]/g, '');
    if (!/^[A-Za-z][a-z]+$/.test(w)) return false;
    return lexicon.classOf(w) !== undefined || (/^[a-z]/.test(w) && !NOT_A_VERB.test(w) && l.tokens.length - at <= 8);
  });
}

/** Words that open a statement, not an order (`all {tools} tools become available`, `the output is …`). */
const NOT_A_VERB = /^(a|all|an|any|are|both|can|each|every|it|its|may|must|no|should|some|that|the|their|there|these|they|this|those|we|will|you|your)$/;

/**
 * The shared lines a procedure may hold together: each must occur with every line kept before it
 * (larger first) in at least two members. Two lines no member writes together are alternatives
 * (one family of skills ends its setup with "Start using the workflows below", another with
 * "Start issuing natural language commands to …"), and a procedure listing both would order a
 * step no source takes.
 */
function stepsTakenTogether<T extends { readonly units: ReadonlySet<string> }>(groups: readonly T[]): T[] {
  const kept: T[] = [];
  for (const g of groups) {
    if (kept.every((k) => [...g.units].filter((u) => k.units.has(u)).length >= 2)) kept.push(g);
  }
  return kept;
}

/**
 * The lines without those that run an earlier line's command again, on the same values in every
 * member that holds both, with options added (`pdftoppm -jpeg -r 150 {pdf} {prefix}`, then the
 * same with `-f 2 -l 5` under "Example for a page range"): the authors show another way to run
 * one step, and as a second step the contract would run it twice. The same command on other
 * values (`kubectl apply -f {a}`, then `-f {b}`) stays a step.
 */
function withoutVariants<T extends { readonly inst: readonly ActionLine[]; readonly au: AntiUnified }>(groups: readonly T[]): T[] {
  const constants = (g: T) => g.au.pieces.flatMap((p) => (p.kind === 'const' ? [p.token] : []));
  const valuesByUnit = (g: T) => new Map(g.inst.map((l, i) => [l.unit, [...g.au.fillers[i]!].sort().join('\u0000')]));
  const kept: T[] = [];
  for (const g of groups) {
    const mine = constants(g);
    const values = valuesByUnit(g);
    const variant = kept.some((k) => {
      const theirs = constants(k);
      if (theirs.length === 0 || theirs[0] !== mine[0] || theirs.length >= mine.length) return false;
      const left = [...mine];
      for (const t of theirs) {
        const at = left.indexOf(t);
        if (at < 0) return false;
        left.splice(at, 1);
      }
      const before = valuesByUnit(k);
      const both = [...values.keys()].filter((u) => before.has(u));
      return both.length >= 2 && both.every((u) => before.get(u) === values.get(u));
    });
    if (!variant) kept.push(g);
  }
  return kept;
}

/**
 * The procedure's lines in the order the members write them: each line's mean rank among the kept
 * lines of the units that hold it (0 first, 1 last), ties in the order given. Kept lines are
 * ranked by how many members share them, which need not be the order of the steps.
 */
function inSourceOrder<T extends { readonly inst: readonly ActionLine[] }>(groups: readonly T[]): T[] {
  const linesOf = new Map<string, { group: number; line: number }[]>();
  groups.forEach((g, gi) => {
    for (const l of g.inst) linesOf.set(l.unit, [...(linesOf.get(l.unit) ?? []), { group: gi, line: l.line }]);
  });
  const ranks = groups.map(() => [] as number[]);
  for (const held of linesOf.values()) {
    if (held.length < 2) continue;
    const sorted = [...held].sort((a, b) => a.line - b.line || a.group - b.group);
    sorted.forEach((h, i) => ranks[h.group]!.push(i / (sorted.length - 1)));
  }
  const mean = ranks.map((r) => (r.length ? r.reduce((a, b) => a + b, 0) / r.length : Number.POSITIVE_INFINITY));
  return groups.map((g, i) => ({ g, i })).sort((a, b) => mean[a.i]! - mean[b.i]! || a.i - b.i).map(({ g }) => g);
}

/** The words that open a condition before a step's action (`If the connection is not ACTIVE, follow …`). */
const CONDITION_OPENER = /^(if|when|whenever|unless|once|otherwise)$/i;

/**
 * Where a step's action starts: 0, or after its opening condition's comma. A conditional step is
 * a branch of the procedure; leaving it out of a contract whose other steps surround it would cut
 * that branch. -1 for a condition with no comma to end it (no action to find).
 */
function mainClause(tokens: readonly string[]): number {
  if (!CONDITION_OPENER.test((tokens[0] ?? '').replace(/[*_`]/g, ''))) return 0;
  const comma = tokens.findIndex((t) => t.endsWith(','));
  if (comma <= 0 || comma + 1 >= tokens.length) return -1;
  return tokens[comma + 1] === 'then' && comma + 2 < tokens.length ? comma + 2 : comma + 1;
}

/** Whether two slots hold the same value in every unit that fills both (and share at least one). */
function sameRole(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  let shared = 0;
  for (const [u, v] of b) {
    if (v === '' || !a.has(u)) continue;
    if (a.get(u) !== v) return false;
    shared++;
  }
  return shared > 0;
}

const PAIRS: Record<string, string> = { '"': '"', "'": "'", '`': '`', '(': ')', '[': ']', '<': '>' };

/**
 * Bindings are bare values (issue 19 item 5): when every filler of a slot is wrapped in the same
 * quotes or brackets, or ends in the same punctuation mark, that text belongs to the template,
 * not to the value (`toolkits: ["{toolkit}"]`, not `toolkit = "\"gmail\""`). Only for slots every
 * instance fills: an empty filler has no quotes to move.
 */
export function bareSlots(au: AntiUnified): AntiUnified {
  let pieces = [...au.pieces];
  const fillers = au.fillers.map((f) => [...f]);
  for (let s = 0; s < au.slotCount; s++) {
    const vals = fillers.map((f) => f[s]!);
    if (vals.some((v) => v === '')) continue;
    let open = '';
    let close = '';
    const first = vals[0]![0]!;
    if (PAIRS[first] && vals.every((v) => v.length >= 3 && v[0] === first && v.endsWith(PAIRS[first]!) && balancedInside(v.slice(1, -1), first, PAIRS[first]!))) {
      open = first;
      close = PAIRS[first]!;
    }
    const inner = vals.map((v) => v.slice(open.length, v.length - close.length));
    const last = inner[0]!.slice(-1);
    let trail = '';
    if (!close && /[,;.:]/.test(last) && inner.every((v) => v.length >= 2 && v.endsWith(last))) trail = last;
    if (!open && !trail) continue;
    const at = pieces.findIndex((p) => p.kind === 'slot' && p.index === s);
    const slot = pieces[at] as Extract<AntiUnified['pieces'][number], { kind: 'slot' }>;
    const replacement: AntiUnified['pieces'][number][] = [];
    if (open) replacement.push({ kind: 'const', token: open, spaced: slot.spaced });
    replacement.push({ kind: 'slot', index: s, spaced: open ? false : slot.spaced });
    if (close) replacement.push({ kind: 'const', token: close, spaced: false });
    if (trail) replacement.push({ kind: 'const', token: trail, spaced: false });
    pieces = [...pieces.slice(0, at), ...replacement, ...pieces.slice(at + 1)];
    fillers.forEach((f) => {
      f[s] = f[s]!.slice(open.length, f[s]!.length - close.length - trail.length);
    });
  }
  return { ...au, pieces, fillers };
}

/** Whether the text between a pair of quotes or brackets holds no unmatched closing mark (`"a" "b"` is two values, not one). */
function balancedInside(inner: string, open: string, close: string): boolean {
  if (open === close) return !inner.includes(open);
  let depth = 0;
  for (const c of inner) {
    if (c === open) depth++;
    else if (c === close && --depth < 0) return false;
  }
  return depth === 0;
}

/** The scripts the members link to or name, and the reference files they link to. */
export function filesUsedBy(members: readonly MemberUnit[]): { scripts: string[]; references: string[] } {
  const scripts = [...new Set(members.flatMap((m) => linkedScripts(m.parent, m.unit).map((s) => s.path)))].sort();
  const references = [...new Set(members.flatMap((m) => m.unit.links.filter((l) => /^(\.\/)?references\//.test(l.url)).map((l) => `${m.parent.path}/${l.url.replace(/^\.\//, '')}`)))].sort();
  return { scripts, references };
}

/** The most common member heading, without step numbering; ties go to the first seen. */
function modalHeading(members: readonly MemberUnit[]): string {
  const counts = new Map<string, number>();
  for (const m of members) {
    const h = normaliseHeading(m.unit.heading ?? m.unit.bullets.find((b) => b.ordered)?.text ?? m.unit.text.trim().split('\n')[0] ?? '');
    if (h) counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  let best = '';
  let n = 0;
  for (const [h, c] of counts) if (c > n) [best, n] = [h, c];
  return best || 'Perform the shared procedure';
}

export function normaliseHeading(h: string): string {
  return h
    .replace(/^\s*((step|phase|stage|part)\s*\d+[a-z]?\s*[:.)-]\s*|\d+(\.\d+)*[.)]?\s+)/i, '')
    .replace(/[:\s]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
}

/** A unit's prose: its text without fenced code. */
export function proseOf(unit: Unit): string {
  let text = unit.text;
  for (const c of [...unit.codeBlocks].reverse()) text = text.slice(0, c.start - unit.start) + text.slice(c.end - unit.start);
  return text;
}

const PRECONDITION = /\b(requires?|required|prerequisites?|before (you|running|using)|make sure|ensure|must (have|be)|needs? to (have|be))\b/i;
const POSTCONDITION = /\b(produces?|writes?|creates?|outputs?|generates?|returns?|you should see|results? in|saved? (to|as|in))\b/i;

/**
 * The members' sentences that match `re` (what is required, what is produced) and that at least
 * two member parents state. A contract is what its members share: a sentence one parent writes is
 * that parent's own context, and read as the contract's it changes what the contract promises (an
 * ALFWorld skill's "Output: The egg 1 is heated and placed on the diningtable 1." is no postcondition
 * of `take {object} from {receptacle}`, though that skill takes the egg). An action's contract is one
 * line of sections that do much else, so its sentences must also name one of the action's own
 * words (`about`).
 */
function conditionsOf(members: readonly MemberUnit[], prose: readonly string[], re: RegExp, about?: ReadonlySet<string>): string[] {
  const parentsOf = new Map<string, Set<string>>();
  prose.forEach((p, i) => {
    for (const raw of p.split(/(?<=[.!?])\s+|\n+/)) {
      const s = raw.replace(/^[\s#>*\-\d.)]+/, '').replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim();
      if (s.length < 12 || s.length > 200 || !re.test(s)) continue;
      if (about && !s.toLowerCase().split(/[^a-z0-9]+/).some((w) => about.has(w))) continue;
      const parents = parentsOf.get(s) ?? new Set<string>();
      parents.add(members[i]!.parent.path);
      parentsOf.set(s, parents);
    }
  });
  return [...parentsOf]
    .filter(([, ps]) => ps.size >= 2)
    .sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_CONDITIONS)
    .map(([s]) => s);
}

/** Words that name no action: a sentence holding only these of an action's words is not about it. */
const NOT_THE_ACTION = new Set(['a', 'an', 'and', 'at', 'for', 'from', 'in', 'into', 'of', 'on', 'onto', 'or', 'the', 'to', 'with']);

/** The words of an action template outside its slots (`use thermometer on {substance}`: use, thermometer). */
function actionWords(template: string): Set<string> {
  const text = template.replace(/\{\{|\}\}/g, ' ').replace(/\{[A-Za-z_]\w*\}/g, ' ').toLowerCase();
  return new Set(text.split(/[^a-z0-9]+/).filter((w) => w.length >= 2 && !NOT_THE_ACTION.has(w)));
}

const WORDING: readonly [SideEffectKind, RegExp][] = [
  ['filesystem', /\b(writes?|saves?|saved|creates? (a |the )?(file|folder|directory)|deletes?|removes?|overwrites?|output file)\b/i],
  ['network', /\b(downloads?|uploads?|fetch(es)?|https?:\/\/|api (call|request)|requests? to|network)\b/i],
  // A terminal is the program only as a place to type into ("in the terminal", "a terminal
  // command"): the bare word is as often an electrical terminal, and "in a terminal state" is none.
  ['subprocess', /\b(runs? (a |the )?(command|script|shell)|executes?|shell|subprocess|(in|into|from|open) (a |the |your )?terminal(?![ -](state|node|value|symbol|condition)s?\b)|terminal (command|window|session)s?)\b/i],
  ['user-visible', /\b(prints?|displays?|shows?|reports? (to|back)|tells? the user)\b/i],
];

export function sideEffects(members: readonly MemberUnit[], templates: readonly ActionTemplate[], prose: readonly string[], shellTemplates: boolean): SideEffect[] {
  const out = new Map<SideEffectKind, SideEffect>();
  const add = (kind: SideEffectKind, evidence: string, sinks: readonly string[] = []) => {
    const prev = out.get(kind);
    out.set(kind, { kind, sinks: [...new Set([...(prev?.sinks ?? []), ...sinks])].sort(), evidence: prev?.evidence ?? evidence });
  };
  for (const [kind, re] of WORDING) {
    const hit = prose.map((p) => re.exec(p)).find((m) => m !== null);
    if (hit) add(kind, `wording: "${hit[0]}"`);
  }
  if (templates.some((t) => t.slots.some((s) => s.startsWith('output')))) add('filesystem', 'an output file flag in a template');
  if (shellTemplates) add('subprocess', 'shell commands in the templates');
  // Author declarations: a sink or kind every source parent lists in metadata.side-effects.
  const declared = members.map((m) => declaredSideEffects(m.parent.frontmatter));
  const common = declared.reduce((acc, d) => new Set([...acc].filter((x) => d.has(x))));
  for (const item of [...common].sort()) {
    if ((SIDE_EFFECT_KINDS as readonly string[]).includes(item)) add(item as SideEffectKind, 'declared in metadata.side-effects');
    else if (item.includes('.')) add(kindOfSink(item), 'declared in metadata.side-effects', [item]);
  }
  return [...out.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

const SIDE_EFFECT_KINDS = ['filesystem', 'network', 'subprocess', 'user-visible'] as const;

/** The side-effect kind a declared sink id most likely belongs to (for the record; verify matches sinks by id). */
function kindOfSink(id: string): SideEffectKind {
  if (/network/.test(id)) return 'network';
  if (/rm|delete|rmtree|disk|chmod|fs-/.test(id)) return 'filesystem';
  return 'subprocess';
}
