/**
 * name-format: `name` is present and 1–64 characters of a-z, 0-9 and single inner hyphens.
 */
import type { LintRule } from '../types.js';
import { codePoints, quote, reportValue } from './helpers.js';
import { idWords } from '../../text/tokens.js';

export const nameFormat: LintRule<{ maxLength: number }> = {
  meta: {
    id: 'name-format',
    category: 'spec',
    summary: 'name is 1–64 lowercase letters, digits and single hyphens',
    doc: 'The Agent Skills specification requires a `name` field: 1 to 64 characters, lowercase letters a-z, digits and hyphens, not starting or ending with a hyphen and without two hyphens in a row. Agents use it as the skill\'s identifier and file systems as a folder name, so spaces, capitals and punctuation break lookups. Rename the skill (and its folder) to a kebab-case name such as `pdf-to-docx`.',
    defaultLevel: 'error',
    fixable: false,
    optionsSchema: { type: 'object', additionalProperties: false, properties: { maxLength: { type: 'integer', minimum: 1 } } },
    defaultOptions: { maxLength: 64 },
  },
  check(ctx, options) {
    const fields = ctx.subject.fields;
    if (!fields) return;
    const entry = fields.get('name');
    if (!entry) {
      ctx.report({ offset: 0, endOffset: 3, message: "missing required field 'name' in the frontmatter" });
      return;
    }
    if (entry.kind !== 'scalar' || entry.text === null || entry.text.trim() === '') {
      reportValue(ctx, entry, "field 'name' must be a non-empty string");
      return;
    }
    const name = entry.text.trim().normalize('NFKC');
    const shown = quote(name);
    if (codePoints(name) > options.maxLength) reportValue(ctx, entry, `name ${shown} is ${codePoints(name)} characters long; the limit is ${options.maxLength}`);
    // Every problem of the name's characters in one message, with a name that has none of them:
    // "must be lowercase" and "may only hold a-z …" at one place read as two problems.
    const problems: string[] = [];
    if (name !== name.toLowerCase()) problems.push('must be lowercase');
    const bad = [...new Set([...name.toLowerCase()].filter((c) => !/[a-z0-9-]/.test(c)))];
    if (bad.length) problems.push(`may only hold a-z, 0-9 and hyphens (found ${bad.map((c) => (c === ' ' ? 'space' : `'${c}'`)).join(', ')})`);
    if (name.startsWith('-') || name.endsWith('-')) problems.push('must not start or end with a hyphen');
    if (name.includes('--')) problems.push('must not contain two hyphens in a row');
    if (problems.length === 0) return;
    const fixed = idWords(name).join('-').slice(0, options.maxLength).replace(/-+$/, '');
    reportValue(ctx, entry, `name ${shown} ${problems.join('; ')}${fixed && fixed !== name ? `: for example ${quote(fixed)}` : ''}`);
  },
};
