/**
 * What a prompt is: a named, versioned pair of instructions and reply schema. The schema is the
 * JSON Schema sent as structured output (OpenAI's strict subset: every property required, no
 * extra properties) and the one every reply is validated against with ajv before skillc uses it.
 * The version is part of the reply cache key: change the wording or the schema, bump it.
 */
export interface PromptSpec<Reply> {
  /** Stable name, also the structured-output schema name (`[a-zA-Z0-9_-]+`). */
  readonly name: string;
  readonly version: number;
  readonly pass: 'extract' | 'bind' | 'rewrite';
  readonly system: string;
  readonly schema: Readonly<Record<string, unknown>>;
  /** Compile-time link between the schema and the reply type (never read). */
  readonly _reply?: Reply;
}

/** A JSON Schema object in the strict subset: every listed property required, nothing else allowed. */
export function strictObject(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;
export const int = { type: 'integer' } as const;
export const strList = { type: 'array', items: { type: 'string' } } as const;
