/**
 * The bundle an agent reads for one rewritten parent (SPEC §5, SaP §3.5): a one-line header saying
 * that invoke(...) is notation, then (1) for each invoke the concrete action lines it stands for,
 * (2) the skeleton, (3) the invoked contracts inlined (trigger, I/O, conditions, templates). Nothing
 * is added beyond what the verified pipeline produced; the replaced sections themselves are not
 * repeated (they stay reachable in the skill's SKILL.replaced.md), which keeps the bundle compact.
 */
import type { CallSite, Contract, RewrittenParent } from '../ir/types.js';
import { codeSpan, fenceFor } from '../text/code-span.js';
import { markerLine } from '../rewrite/rewrite-parent.js';
import { fieldSignature } from './contract-md.js';

export function renderBundle(rewrite: RewrittenParent, callSites: readonly CallSite[], contracts: ReadonlyMap<string, Contract>, replacedPath: string): string {
  const L: string[] = [];
  L.push(`> \`invoke(…)\` is notation, not an action: do the actions listed for it in section 1. Original sections: \`${replacedPath}\`.`, '');
  L.push('## 1. Actions per invoke', '');
  for (const cs of callSites) {
    const body = cs.actions.map((a) => a.text).join('\n');
    const fence = fenceFor(body);
    L.push(`${codeSpan(cs.invoke)} (line ${cs.line}):`, fence, body, fence, '');
  }
  L.push('## 2. Skill', '');
  L.push(stripMarker(rewrite.text, markerLine(callSites.length, rewrite.replacedFile)).replace(/\s+$/, ''), '');
  L.push('## 3. Contracts', '');
  const ids = [...new Set(callSites.map((c) => c.contract))].sort();
  for (const id of ids) L.push(...contractBlock(contracts.get(id)!), '');
  return L.join('\n');
}

function contractBlock(c: Contract): string[] {
  const L = [`### ${c.id}`, '', `${c.trigger}. Inputs: ${c.input_schema.map(fieldSignature).join(', ') || 'none'}. Outputs: ${c.output_schema.map(fieldSignature).join(', ') || 'none'}.`];
  if (c.preconditions.length) L.push(`Pre: ${c.preconditions.join(' ')}`);
  if (c.postconditions.length) L.push(`Post: ${c.postconditions.join(' ')}`);
  if (c.side_effects.length) L.push(`Side effects: ${c.side_effects.map((s) => s.kind + (s.sinks.length ? ` (${s.sinks.join(', ')})` : '')).join(', ')}.`);
  L.push(`Templates: ${c.templates.map((t) => codeSpan(t.template)).join('; ')}`);
  return L;
}

/** The skeleton without skillc's marker line (the bundle header says the same). */
function stripMarker(text: string, marker: string): string {
  const at = text.indexOf(marker);
  if (at < 0) return text;
  const end = at + marker.length;
  return text.slice(0, at) + text.slice(text.startsWith('\r\n', end) ? end + 2 : text.startsWith('\n', end) ? end + 1 : end);
}
