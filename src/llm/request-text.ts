/**
 * Small helpers for writing request text: source passages are quoted verbatim inside a fence long
 * enough not to be closed by the passage itself, and clipped to a size bound so one huge skill
 * cannot blow up a request; contracts are summarised the same way in every request.
 */
import type { Contract } from '../ir/types.js';
import { fenceFor } from '../text/code-span.js';

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n…[${text.length - max} more characters not shown]`;
}

export function fencedBlock(text: string, lang = 'markdown'): string {
  const fence = fenceFor(text);
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

/** A contract as requests show it: a block of its inputs (type, required, description) and one of its templates. */
export function contractSummary(c: Contract): [inputs: string, templates: string] {
  return [
    'Inputs:\n' + c.input_schema.map((f) => `- ${f.name} (${f.type}${f.required ? ', required' : ''}): ${f.description}`).join('\n'),
    'Templates:\n' + c.templates.map((t) => `- ${t.template}`).join('\n'),
  ];
}
