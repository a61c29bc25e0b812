/**
 * metadata-string-map: `metadata`, when present, maps string keys to string values.
 *
 * The fix's intended change: the value at metadata.<key>, a number or boolean, becomes the string
 * written in the file (`1.0` → "1.0"); declared as a DataChange so the engine checks exactly that.
 * A null (`null`, `~`) is reported but not fixed: the string "null" would silently change its
 * meaning from "no value" to a word.
 */
import type { LintRule } from '../types.js';
import { NO_OPTIONS, reportValue } from './helpers.js';

export const metadataStringMap: LintRule = {
  meta: {
    id: 'metadata-string-map',
    category: 'spec',
    summary: 'metadata maps keys to string values',
    doc: 'The optional `metadata` field holds extra properties as a flat map from string keys to string values. A number such as `version: 1.0` is read by YAML as the number 1 (the ".0" is lost) and by other tools as text; a nested list or map is flattened to its Python or JSON spelling. The fix quotes plain numbers and booleans as written; a null (`null`, `~`) is left for you to remove or to quote, and nested values must be flattened by hand.',
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
      if (child.kind === 'scalar' && child.scalarType === 'null') {
        ctx.report({ offset: child.valueStart, endOffset: child.valueEnd, message: `metadata.${child.key} is ${child.text}, read as null (no value), not a string: remove it, or quote it if you mean the text` });
      } else if (child.kind === 'scalar' && child.nonString && child.text !== null) {
        // A value an explicit tag made (!!timestamp …) keeps its tag when quoted, so it gets no fix.
        const quotable = child.scalarType === 'boolean' || child.scalarType === 'number';
        ctx.report({
          offset: child.valueStart,
          endOffset: child.valueEnd,
          message: `metadata.${child.key} is ${child.text}, read as a ${quotable ? child.scalarType : 'tagged value'}, not a string: quote it`,
          ...(quotable ? { fix: [{ start: child.valueStart, end: child.valueEnd, text: JSON.stringify(child.text) }], fixChanges: [{ path: ['metadata', child.key], from: ['number', 'boolean'], to: child.text }] } : {}),
        });
      } else if (child.kind === 'map' || child.kind === 'seq') {
        reportValue(ctx, child, `metadata.${child.key} is a ${child.kind === 'map' ? 'mapping' : 'list'}; metadata values must be strings`);
      }
    }
  },
};
