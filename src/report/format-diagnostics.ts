/**
 * Diagnostic formatters: pure functions from diagnostics to text. `stylish` prints one line per
 * diagnostic, `file:line:col  severity  message  name (code)`, which terminals and editors can
 * jump to; `json` prints the diagnostics array as stable JSON. Paths and messages carry text from
 * skills, so stylish shows their control characters escaped (text/terminal.ts).
 */
import pc from 'picocolors';
import type { Diagnostic, Severity } from '../ir/diagnostics.js';
import { countBySeverity } from '../ir/diagnostics.js';
import { stableStringify } from '../util/stable-json.js';
import { escapeInline } from '../text/terminal.js';

export type DiagnosticFormat = 'stylish' | 'json';

export interface FormatOptions {
  readonly color?: boolean;
  /** Print at most this many (0 = all); a closing line says how many were left out. */
  readonly limit?: number;
  /** Prefix for file paths (e.g. the library path as the user typed it), so paths open from the shell. */
  readonly pathPrefix?: string;
}

export function formatDiagnostics(diags: readonly Diagnostic[], format: DiagnosticFormat, opts: FormatOptions = {}): string {
  if (format === 'json') return stableStringify(diags);
  return formatStylish(diags, opts);
}

export function formatStylish(diags: readonly Diagnostic[], opts: FormatOptions = {}): string {
  const c = opts.color ? pc : pc.createColors(false);
  const paint: Record<Severity, (s: string) => string> = { error: c.red, warning: c.yellow, info: c.blue };
  const limit = opts.limit && opts.limit > 0 ? opts.limit : diags.length;
  const prefix = opts.pathPrefix ?? '';
  const lines = diags.slice(0, limit).map((d) => {
    const where = `${escapeInline(prefix + d.file)}:${d.line}:${d.column}`;
    return `${c.bold(where)}  ${paint[d.severity](d.severity)}  ${escapeInline(d.message)}  ${c.dim(`${d.name} (${d.code})`)}`;
  });
  if (diags.length > limit) lines.push(c.dim(`… ${diags.length - limit} more diagnostics not shown`));
  return lines.length ? lines.join('\n') + '\n' : '';
}

export function summariseDiagnostics(diags: readonly Diagnostic[]): string {
  const n = countBySeverity(diags);
  const plural = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
  return `${plural(n.error, 'error')}, ${plural(n.warning, 'warning')}, ${n.info} info`;
}
