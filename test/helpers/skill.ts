/** Small builders for pass-level tests: a parsed parent from markdown text, a contract from templates. */
import type { ActionTemplate, Contract, FieldSpec, Parent, SkillFileRef } from '../../src/ir/types.js';
import { parseSkill } from '../../src/passes/parse.js';

export function parentOf(path: string, text: string, files: SkillFileRef[] = []): Parent {
  return parseSkill({ path, file: `${path}/SKILL.md`, content: new TextEncoder().encode(text), files }, []);
}

/** A contract with every required field filled; tests override what they care about. */
export function contract(id: string, input: readonly FieldSpec[], over: Partial<Contract> = {}): Contract {
  return {
    id,
    cluster: `cluster-${id}`,
    trigger: `When the task needs ${id}`,
    input_schema: input,
    output_schema: [],
    preconditions: [],
    postconditions: [],
    resources: { scripts: [], references: [], tools: [] },
    side_effects: [],
    templates: [],
    source_parents: ['skills/a', 'skills/b'],
    provenance: { method: 'deterministic', version: 1 },
    scope: 'section',
    ...over,
  };
}

export const field = (name: string, type: FieldSpec['type'], required = true, description = `the ${name}`): FieldSpec => ({ name, type, required, description });

/** A contract whose required string inputs are the slots of the given templates (or `inputs`). */
export function contractOf(id: string, templates: readonly string[], inputs?: readonly FieldSpec[]): Contract {
  const ts: ActionTemplate[] = templates.map((template) => {
    const slots = [...template.matchAll(/\{([a-z_0-9]+)\}/g)].map((m) => m[1]!);
    return { template, slots, source: 'step', instances: [] };
  });
  const names = [...new Set(ts.flatMap((t) => t.slots))];
  return contract(id, inputs ?? names.map((name) => field(name, 'string', true, '')), { cluster: `c-${id}`, trigger: id.replace(/-/g, ' '), templates: ts, source_parents: [] });
}
