/**
 * name-matches-folder: `name` equals the name of the skill's folder.
 */
import type { LintRule } from '../types.js';
import { NO_OPTIONS, quote, reportValue } from './helpers.js';

export const nameMatchesFolder: LintRule = {
  meta: {
    id: 'name-matches-folder',
    category: 'spec',
    summary: 'name equals the skill folder\'s name',
    doc: 'The Agent Skills specification requires `name` to equal the name of the folder that holds SKILL.md. Agents that install or load skills by folder, and tools that resolve a skill by name, otherwise find two identities for one skill. Rename the folder or change `name` so that they agree (both are compared after Unicode NFKC normalisation, as the reference validator does).',
    defaultLevel: 'error',
    fixable: false,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const entry = ctx.subject.fields?.get('name');
    if (!entry || entry.kind !== 'scalar' || entry.text === null || entry.text.trim() === '') return;
    const name = entry.text.trim().normalize('NFKC');
    const folder = ctx.subject.folderName.normalize('NFKC');
    if (name !== folder) reportValue(ctx, entry, `name ${quote(name)} does not match the skill's folder ${quote(ctx.subject.folderName)}`);
  },
};
