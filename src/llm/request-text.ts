/**
 * Small helpers for writing request text: source passages are quoted verbatim inside a fence long
 * enough not to be closed by the passage itself, and clipped to a size bound so one huge skill
 * cannot blow up a request.
 */
import { fenceFor } from '../text/code-span.js';

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n…[${text.length - max} more characters not shown]`;
}

export function fencedBlock(text: string, lang = 'markdown'): string {
  const fence = fenceFor(text);
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}
