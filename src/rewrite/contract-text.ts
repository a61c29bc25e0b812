/**
 * A contract's readable text: what stating it once costs the library (the cost model of
 * rewrite/plan.ts counts its tokens) and what an answer that inlines it shows (trigger, I/O,
 * conditions, side effects, templates). In templates `{name}` is an input and doubled braces are
 * literal braces (rewrite/templates.ts).
 */
import type { Contract, FieldSpec } from '../ir/types.js';
import { codeSpan } from '../text/code-span.js';

/** `name: type`, with `?` after an optional field's name. */
export function fieldSignature(f: FieldSpec): string {
  return `${f.name}${f.required ? '' : '?'}: ${f.type}`;
}

export function contractText(c: Contract): string {
  const L = [`### ${c.id}`, '', `${c.trigger}. Inputs: ${c.input_schema.map(fieldSignature).join(', ') || 'none'}. Outputs: ${c.output_schema.map(fieldSignature).join(', ') || 'none'}.`];
  if (c.preconditions.length) L.push(`Pre: ${c.preconditions.join(' ')}`);
  if (c.postconditions.length) L.push(`Post: ${c.postconditions.join(' ')}`);
  if (c.side_effects.length) L.push(`Side effects: ${c.side_effects.map((s) => s.kind + (s.sinks.length ? ` (${s.sinks.join(', ')})` : '')).join(', ')}.`);
  L.push(`Templates: ${c.templates.map((t) => codeSpan(t.template)).join('; ')}`);
  return L.join('\n');
}
