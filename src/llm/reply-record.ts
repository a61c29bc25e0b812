/**
 * One place that turns what happened to a model request into data: a ModelReplyRecord for the
 * report and, unless the reply was used, a diagnostic at the item's file and line saying why the
 * deterministic result stands (or, for a decline, what the model judged).
 */
import type { ModelReplyRecord } from '../ir/types.js';
import { makeDiagnostic, type DiagnosticName } from '../ir/diagnostics.js';
import type { PassContext } from '../passes/pass.js';

export interface ReplyItem {
  readonly pass: ModelReplyRecord['pass'];
  readonly item: string;
  readonly file: string;
  readonly line: number;
}

export type ReplyOutcome =
  | { readonly outcome: 'accepted'; readonly reason?: string; readonly cacheKey: string }
  | { readonly outcome: 'declined' | 'rejected'; readonly reason: string; readonly cacheKey: string }
  | { readonly outcome: 'failed'; readonly kind: 'failed' | 'invalid'; readonly reason: string; readonly cacheKey: string }
  | { readonly outcome: 'skipped'; readonly reason: string };

export function recordReply(ctx: PassContext, item: ReplyItem, o: ReplyOutcome): ModelReplyRecord {
  const cacheKey = 'cacheKey' in o ? o.cacheKey : null;
  const reason = o.reason ?? '';
  let name: DiagnosticName | null = null;
  let message = '';
  switch (o.outcome) {
    case 'accepted':
      break;
    case 'declined':
      name = 'model-declined';
      message = `${item.item}: ${reason}`;
      break;
    case 'rejected':
      name = 'model-reply-rejected';
      message = `${item.item}: the model's reply was rejected (${reason}); the deterministic result stands`;
      break;
    case 'failed':
      name = o.kind === 'invalid' ? 'model-reply-invalid' : 'model-call-failed';
      message = `${item.item}: ${reason}; the deterministic result stands`;
      break;
    case 'skipped':
      name = 'model-request-skipped';
      message = `${item.item}: ${reason}; the deterministic result stands`;
      break;
  }
  if (name !== null) ctx.report(makeDiagnostic(item.pass, name, { file: item.file, line: item.line, message }));
  return { ...item, outcome: o.outcome, reason, cacheKey };
}
