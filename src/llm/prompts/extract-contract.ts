/**
 * Stage 3 with a model (SPEC §2 pass 3, SaP appendix T.4): one request per candidate cluster. The
 * model sees the member units and the deterministic extractor's draft, and either returns a typed
 * contract or declines with `_extraction_failed` when the units do not describe one procedure.
 * Whatever it returns is a hypothesis: extract/model-draft.ts grounds it in the units and the
 * verifier decides.
 */
import type { FieldSpec, FieldType, SideEffect, SideEffectKind } from '../../ir/types.js';
import type { PromptSpec } from '../prompt.js';
import { bool, str, strictObject, strList } from '../prompt.js';

/** The closed sets of the contract IR (SPEC §4), as the reply schema lists them. */
export const FIELD_TYPES = ['string', 'integer', 'number', 'boolean', 'file', 'json', 'table', 'image', 'document', 'list', 'enum', 'object'] as const satisfies readonly FieldType[];
export const SIDE_EFFECT_KINDS = ['filesystem', 'network', 'subprocess', 'user-visible'] as const satisfies readonly SideEffectKind[];

export interface ExtractReply {
  readonly _extraction_failed: boolean;
  readonly reason: string;
  readonly id: string;
  readonly trigger: string;
  /** Fields as in the contract IR; the schema restricts names to snake_case. */
  readonly input_schema: readonly FieldSpec[];
  readonly output_schema: readonly FieldSpec[];
  readonly preconditions: readonly string[];
  readonly postconditions: readonly string[];
  readonly side_effects: readonly Pick<SideEffect, 'kind' | 'evidence'>[];
  readonly templates: readonly string[];
  readonly rationale: string;
}

const field = strictObject({ name: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,39}$' }, type: { type: 'string', enum: [...FIELD_TYPES] }, required: bool, description: str });

export const EXTRACT_PROMPT: PromptSpec<ExtractReply> = {
  name: 'skillc_extract_contract',
  version: 1,
  pass: 'extract',
  system: [
    'You turn a cluster of procedural passages, taken from several agent skills, into one typed, callable contract.',
    'The passages were grouped because they look like the same sub-procedure. Decide whether they really are one procedure that varies only in its arguments.',
    'If they are, describe it: a kebab-case id, a one-line trigger saying when to use it, the inputs (snake_case names, a type, whether required, a short description), the outputs, pre- and postconditions stated in the passages, and the side effects (filesystem, network, subprocess, user-visible) with the words that show them.',
    'Give the action templates: concrete command or action lines from the passages with the varying parts replaced by {input_name}. A template must reproduce real lines of at least two passages when its slots are filled; every {slot} must be one of the inputs, and every required input must appear in some template.',
    'A draft made by a deterministic extractor is included; keep what is right in it and fix what is wrong.',
    'Use only facts found in the passages. If the passages are too different to share one contract, set _extraction_failed to true, say why in reason, and leave the other fields empty.',
    'Reply with JSON only, matching the schema.',
  ].join('\n'),
  schema: strictObject({
    _extraction_failed: bool,
    reason: str,
    id: str,
    trigger: str,
    input_schema: { type: 'array', items: field },
    output_schema: { type: 'array', items: field },
    preconditions: strList,
    postconditions: strList,
    side_effects: { type: 'array', items: strictObject({ kind: { type: 'string', enum: [...SIDE_EFFECT_KINDS] }, evidence: str }) },
    templates: strList,
    rationale: str,
  }),
};
