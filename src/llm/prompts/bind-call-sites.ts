/**
 * Binding Extraction with a model (SPEC §2 pass 5, SaP §3.2 and appendix T.4): one request per
 * parent skill, covering all of its candidate call-sites. For each candidate the model says
 * whether the unit really is a call of the contract and, if so, which text of the unit binds each
 * input. Replies are checked by bind/model-bindings.ts: a binding that is not a substring of the
 * unit, or that breaks the round trip, is rejected and the deterministic result stands.
 */
import type { PromptSpec } from '../prompt.js';
import { bool, str, strictObject } from '../prompt.js';

export interface BindReplyItem {
  readonly candidate: string;
  readonly should_invoke: boolean;
  readonly confidence: 'low' | 'medium' | 'high';
  readonly bindings: readonly { readonly name: string; readonly value: string }[];
  readonly rationale: string;
}

export interface BindReply {
  readonly call_sites: readonly BindReplyItem[];
}

export const BIND_PROMPT: PromptSpec<BindReply> = {
  name: 'skillc_bind_call_sites',
  version: 1,
  pass: 'bind',
  system: [
    'You check candidate call-sites in one agent skill. Each candidate is a section of the skill and a typed contract (a reusable procedure) it may be an instance of.',
    'For each candidate decide should_invoke: true only if the section really performs the contract\'s procedure, so that replacing its body with a call of the contract loses nothing the agent needs.',
    'If should_invoke is true, give a binding for every input of the contract that the section supplies: the value must be copied exactly, character for character, from the section text. Every required input needs a binding; if one cannot be found in the section, should_invoke must be false.',
    'Suggested bindings from a deterministic aligner are included; keep them when they are right.',
    'Answer every candidate exactly once, using its candidate key. Reply with JSON only, matching the schema.',
  ].join('\n'),
  schema: strictObject({
    call_sites: {
      type: 'array',
      items: strictObject({
        candidate: str,
        should_invoke: bool,
        confidence: { type: 'string', enum: ['low', 'medium', 'high'] },
        bindings: { type: 'array', items: strictObject({ name: str, value: str }) },
        rationale: str,
      }),
    },
  }),
};
