/** Small builders for pass-level tests: a parsed parent from markdown text, a contract from templates. */
import type { ActionTemplate, Contract, FieldSpec, Parent, SkillFileRef } from '../../src/ir/types.js';
import { parseSkill } from '../../src/passes/parse.js';

export function parentOf(path: string, text: string, files: SkillFileRef[] = []): Parent {
  return parseSkill({ path, file: `${path}/SKILL.md`, content: new TextEncoder().encode(text), files }, []);
}

export function contractOf(id: string, templates: readonly string[], inputs?: readonly FieldSpec[]): Contract {
  const ts: ActionTemplate[] = templates.map((template) => {
    const slots = [...template.matchAll(/\{([a-z_0-9]+)\}/g)].map((m) => m[1]!);
    return { template, slots, source: 'step', instances: [] };
  });
  const names = [...new Set(ts.flatMap((t) => t.slots))];
  return {
    id,
    cluster: `c-${id}`,
    trigger: id.replace(/-/g, ' '),
    input_schema: inputs ?? names.map((name) => ({ name, type: 'string', required: true, description: '' })),
    output_schema: [],
    preconditions: [],
    postconditions: [],
    resources: { scripts: [], references: [], tools: [] },
    side_effects: [],
    templates: ts,
    source_parents: [],
    provenance: { method: 'deterministic', version: 1 },
  };
}
