/**
 * Deterministic contract extraction for one cluster (SPEC §2 pass 3, §4). The members' action
 * lines are grouped by shape and anti-unified into templates; template slots become the typed
 * input_schema (output flags also the output_schema); the trigger is the members' most common
 * heading; pre/postconditions are the members' sentences that say what is required or produced;
 * resources are the scripts, references and tools they use; side effects are what their wording
 * and structure declare, plus what every source parent's author declares in
 * `metadata.side-effects`. A cluster whose members share no action line fails with a reason.
 */
import type { ActionTemplate, Cluster, Contract, ExtractionFailure, FieldSpec, Parent, SideEffect, SideEffectKind, Unit } from '../ir/types.js';
import { actionLines, type ActionLine } from './action-lines.js';
import { antiUnify, groupLines } from './anti-unify.js';
import { shapeSlot } from './slots.js';
import { linkedScripts } from '../propose/frame.js';
import { declaredSideEffects } from '../risk/declarations.js';
import { escapeTemplateText } from '../rewrite/templates.js';

export const EXTRACT_VERSION = 2;
const MAX_TEMPLATES = 8;
const MAX_CONDITIONS = 3;

export interface MemberUnit {
  readonly unit: Unit;
  readonly parent: Parent;
}

export function extractContract(cluster: Cluster, members: readonly MemberUnit[]): Contract | ExtractionFailure {
  const lines = members.flatMap((m) => actionLines(m.unit));
  if (lines.length === 0) return { cluster: cluster.id, reason: 'no action lines: no member has fenced code, a command span or a numbered step' };
  const groups = groupLines(lines)
    .map((g) => ({ g, units: new Set(g.lines.map((l) => l.unit)) }))
    .filter((x) => x.units.size >= 2)
    // A template needs a real constant (a command, a tool, a word), not just quotes and brackets.
    .filter((x) => x.g.lines[0]!.tokens.some((t) => /[A-Za-z]{2}/.test(t)))
    .sort((a, b) => b.units.size - a.units.size || lines.indexOf(a.g.lines[0]!) - lines.indexOf(b.g.lines[0]!))
    .slice(0, MAX_TEMPLATES);
  if (groups.length === 0) return { cluster: cluster.id, reason: `no shared action: none of the ${lines.length} action lines has the same shape in two member units` };

  const usedNames = new Set<string>();
  const inputs: FieldSpec[] = [];
  const outputs: FieldSpec[] = [];
  const templates: ActionTemplate[] = groups.map(({ g }) => {
    // One instance per unit: its first line of this shape.
    const seen = new Set<string>();
    const inst: ActionLine[] = g.lines.filter((l) => !seen.has(l.unit) && (seen.add(l.unit), true));
    const au = antiUnify(inst.map((l) => l.tokens), inst.map((l) => l.spaced));
    const names: string[] = [];
    for (let s = 0; s < au.slotCount; s++) {
      const at = au.pieces.findIndex((p) => p.kind === 'slot' && p.index === s);
      const before = at > 0 ? au.pieces[at - 1] : undefined;
      const values = au.fillers.map((f) => f[s]!);
      const shape = shapeSlot(before?.kind === 'const' ? before.token : undefined, values);
      let name = shape.name;
      for (let k = 2; usedNames.has(name); k++) name = `${shape.name}_${k}`;
      usedNames.add(name);
      names.push(name);
      const examples = [...new Set(values.filter((v) => v !== ''))].slice(0, 3).map((v) => `\`${v}\``).join(', ');
      const field: FieldSpec = { name, type: shape.type, required: values.every((v) => v !== ''), description: `${shape.output ? 'where the result is written' : 'varies across source units'}; seen: ${examples || '(empty)'}` };
      inputs.push(field);
      if (shape.output) outputs.push({ ...field, description: `file written by the action; seen: ${examples}` });
    }
    // Braces of the line itself are doubled, so they can never be read as a slot.
    const template = au.pieces.map((p, i) => (i > 0 && p.spaced ? ' ' : '') + (p.kind === 'const' ? escapeTemplateText(p.token) : `{${names[p.index]}}`)).join('');
    return {
      template,
      slots: names,
      source: g.source,
      instances: inst.map((l, i) => ({ unit: l.unit, line: l.line, text: l.text, bindings: Object.fromEntries(names.map((n, s) => [n, au.fillers[i]![s]!])) })),
    };
  });

  if (inputs.length === 0) {
    return { cluster: cluster.id, reason: `no varying slot: the ${templates.length} shared action lines are identical in every member, so there is nothing to bind (a repeated passage, not a callable procedure)` };
  }

  const trigger = modalHeading(members);
  const prose = members.map((m) => proseOf(m.unit));
  const tools = [...new Set(groups.flatMap(({ g }, i) => {
    const first = templates[i]!.template.split(' ')[0]!;
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
    preconditions: sentencesMatching(prose, /\b(requires?|required|prerequisites?|before (you|running|using)|make sure|ensure|must (have|be)|needs? to (have|be))\b/i),
    postconditions: sentencesMatching(prose, /\b(produces?|writes?|creates?|outputs?|generates?|returns?|you should see|results? in|saved? (to|as|in))\b/i),
    resources: { scripts, references, tools },
    side_effects: sideEffects(members, templates, prose, groups.some(({ g }) => g.source === 'code' && g.lines[0]!.shell)),
    templates,
    source_parents: cluster.parents,
    provenance: { method: 'deterministic', version: EXTRACT_VERSION },
  };
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

function sentencesMatching(prose: readonly string[], re: RegExp): string[] {
  const counts = new Map<string, number>();
  for (const p of prose) {
    const seen = new Set<string>();
    for (const raw of p.split(/(?<=[.!?])\s+|\n+/)) {
      const s = raw.replace(/^[\s#>*\-\d.)]+/, '').replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim();
      if (s.length < 12 || s.length > 200 || !re.test(s) || seen.has(s)) continue;
      seen.add(s);
      counts.set(s, (counts.get(s) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_CONDITIONS).map(([s]) => s);
}

const WORDING: readonly [SideEffectKind, RegExp][] = [
  ['filesystem', /\b(writes?|saves?|saved|creates? (a |the )?(file|folder|directory)|deletes?|removes?|overwrites?|output file)\b/i],
  ['network', /\b(downloads?|uploads?|fetch(es)?|https?:\/\/|api (call|request)|requests? to|network)\b/i],
  ['subprocess', /\b(runs? (a |the )?(command|script|shell)|executes?|shell|subprocess|terminal)\b/i],
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
