/**
 * metadata-string-map: `metadata`, when present, maps string keys to string values.
 */
import type { LintRule } from '../types.js';
import { NO_OPTIONS, reportValue } from './helpers.js';

export const metadataStringMap: LintRule = {
  meta: {
    id: 'metadata-string-map',
    category: 'spec',
    summary: 'metadata maps keys to string values',
    doc: 'The optional `metadata` field holds extra properties as a flat map from string keys to string values. A number such as `version: 1.0` is read by YAML as the number 1 (the ".0" is lost) and by other tools as text; a nested list or map is flattened to its Python or JSON spelling. The fix quotes plain numbers and booleans as written; nested values must be flattened by hand.',
    defaultLevel: 'warn',
    fixable: true,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const entry = ctx.subject.fields?.get('metadata');
    if (!entry || entry.kind === 'null') return;
    if (entry.kind !== 'map') {
      reportValue(ctx, entry, "field 'metadata' must be a mapping of keys to string values");
      return;
    }
    for (const child of entry.children) {
      if (child.kind === 'scalar' && child.nonString && child.text !== null) {
        ctx.report({
          offset: child.valueStart,
          endOffset: child.valueEnd,
          message: `metadata.${child.key} is ${child.text}, read as a ${/^(true|false|yes|no|on|off)$/i.test(child.text) ? 'boolean' : 'number'}, not a string: quote it`,
          fix: [{ start: child.valueStart, end: child.valueEnd, text: JSON.stringify(child.text) }],
        });
      } else if (child.kind === 'map' || child.kind === 'seq') {
        reportValue(ctx, child, `metadata.${child.key} is a ${child.kind === 'map' ? 'mapping' : 'list'}; metadata values must be strings`);
      }
    }
  },
};
