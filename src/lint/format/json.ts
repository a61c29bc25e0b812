/**
 * json: ESLint's LintResult array (filePath, messages with severity 1 = warning and 2 = error,
 * counts, and `output` after --fix), with skillc's fix edits and suggestions kept on each message.
 * Shape: schemas/lint-results.schema.json.
 */
import type { LintFileResult } from '../types.js';
import { stableStringify } from '../../util/stable-json.js';

export function formatJson(results: readonly LintFileResult[]): string {
  const out = results.map((r) => ({
    ...r,
    messages: r.messages.map((m) => ({ ...m, severity: m.severity === 'error' ? 2 : 1 })),
  }));
  return stableStringify(out);
}
