import type { Contract, FieldSpec } from '../../src/ir/types.js';

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
    ...over,
  };
}

export const field = (name: string, type: FieldSpec['type'], required = true, description = `the ${name}`): FieldSpec => ({ name, type, required, description });

export const installDependencies = contract('install-dependencies', [field('package', 'string'), field('version', 'string', false, 'pinned version */ maybe')], {
  trigger: 'Install the Python packages a script needs',
  preconditions: ['pip is available'],
  postconditions: ['the package imports'],
  side_effects: [{ kind: 'subprocess', sinks: ['shell.pip'], evidence: 'runs pip install' }, { kind: 'network', sinks: [], evidence: '' }],
  templates: [{ template: 'pip install {package}', slots: ['package'], source: 'code', instances: [] }],
});

export const resizeImage = contract('resize-image', [field('input', 'image'), field('width', 'integer'), field('keep-aspect', 'boolean', false), field('out', 'file')], {
  output_schema: [field('out', 'file', true, 'where the resized image is written')],
});
