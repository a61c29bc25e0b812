import { contract, field } from '../helpers/skill.js';

export { contract, field };

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
