/**
 * Rewrite Cleanup with a model (SPEC §2 pass 6, SaP §3.2 and appendix T.4): one request per
 * rewritten parent. The model sees the rewritten skill with line numbers and the contracts it
 * invokes, and lists the passages that still spell out (or contradict) an invoked contract, each
 * with the exact text to replace and an invoke to put there. rewrite/model-cleanup.ts splices the
 * edits into the original text by offsets and the rewrite post-check decides whether they stand.
 */
import type { PromptSpec } from '../prompt.js';
import { int, str, strictObject } from '../prompt.js';

export interface CleanupReplyEdit {
  readonly line: number;
  readonly find: string;
  readonly replace: string;
  readonly rationale: string;
}

export interface CleanupReply {
  readonly edits: readonly CleanupReplyEdit[];
}

export const CLEANUP_PROMPT: PromptSpec<CleanupReply> = {
  name: 'skillc_rewrite_cleanup',
  version: 1,
  pass: 'rewrite',
  system: [
    'You clean up an agent skill that has been rewritten to call typed contracts. Some sections were replaced by invoke(contract-id, {input="value"}) lines.',
    'Other passages of the skill may still describe an operation that one of the listed contracts performs, or contradict a contract (for example an example that uses another verb for the same action on the same objects).',
    'For each such passage return an edit: the line number, find = the exact text on that line to replace (copied character for character), and replace = an invoke of one of the listed contracts, written as invoke(contract-id, {input="value", ...}) with every required input bound to text taken from the skill.',
    'Do not touch headings, the invoke lines already present, or the skillc comment. Keep parent-specific text. Do not add any content that is in neither the skill nor the contracts.',
    'If nothing needs to change, return no edits. Reply with JSON only, matching the schema.',
  ].join('\n'),
  schema: strictObject({
    edits: { type: 'array', items: strictObject({ line: { ...int, minimum: 1 }, find: str, replace: str, rationale: str }) },
  }),
};
