/**
 * A screen in front of the MCP SDK's stdio reader. The SDK reads one JSON-RPC message per line and
 * reports a line it cannot take as an error without the line, so the answer to it could only carry
 * id null. Here each line is looked at first:
 * - a blank line (a client's keep-alive, a stray newline) is no message and gets no answer, nor
 *   does a malformed response (no request to answer);
 * - a JSON object that is not a JSON-RPC 2.0 message but has a readable id (`"jsonrpc": "1.0"`)
 *   is answered with -32600 under that id, as JSON-RPC 2.0 asks, and not passed on;
 * - every other line goes on unchanged (a line that is not JSON still gets the SDK's error, -32700
 *   with id null, from serve-command.ts).
 * A line longer than the SDK's own buffer limit is passed on unscreened, piece by piece, so the
 * screen holds no more than the SDK would.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { CancelledNotificationSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK buffers for one line at most (its STDIO_DEFAULT_MAX_BUFFER_SIZE). */
const MAX_SCREENED_LINE = 10 * 1024 * 1024;

export interface InvalidRequestReply {
  readonly jsonrpc: '2.0';
  readonly id: string | number;
  readonly error: { readonly code: -32600; readonly message: string };
}

export const INVALID_REQUEST_MESSAGE = 'Invalid Request: a line on stdin is not a JSON-RPC 2.0 message';

/** The answer to one line, if the screen answers it itself: null to pass it on, 'drop' to drop it. */
export function screenLine(line: string): InvalidRequestReply | 'drop' | null {
  return readLine(line).verdict;
}

/** A line's verdict, and the id of the request it passes on, if it is one. */
function readLine(line: string): { verdict: InvalidRequestReply | 'drop' | null; request?: string | number; cancelled?: string | number } {
  if (line.trim() === '') return { verdict: 'drop' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { verdict: null };
  }
  const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const id = object?.['id'];
  const readableId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  if (JSONRPCMessageSchema.safeParse(value).success) {
    // A request the client cancels gets no answer (MCP): it is in flight no more. Read as the SDK
    // reads the notice, which ignores one it cannot parse, or whose request id is 0 or ''.
    const notice = object!['method'] === 'notifications/cancelled' ? CancelledNotificationSchema.safeParse(value) : undefined;
    const cancelled = notice?.success ? notice.data.params.requestId : undefined;
    if (cancelled !== undefined && cancelled !== 0 && cancelled !== '') return { verdict: null, cancelled };
    return { verdict: null, ...(readableId && 'method' in object! ? { request: id } : {}) };
  }
  // A malformed response (a result or an error, no method) is not answered: JSON-RPC answers
  // requests only, and an error under its id could pass for the answer to the client's own request.
  if (object && !('method' in object) && ('result' in object || 'error' in object)) return { verdict: 'drop' };
  if (!readableId) return { verdict: null };
  return { verdict: { jsonrpc: '2.0', id, error: { code: -32600, message: INVALID_REQUEST_MESSAGE } } };
}

/**
 * A stream of stdin's lines with blank ones dropped and readable bad requests answered through
 * `answer`; `onRequest` hears the id of each request passed on, and of each request the client
 * cancels (serve waits for the answers to the others when input ends).
 */
export function screenedStdin(answer: (reply: InvalidRequestReply) => void, onRequest: (id: string | number, cancelled: boolean) => void = () => undefined): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Inside a line too long to screen: pass bytes on until its end. */
  let passing = false;
  return new Transform({
    transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback) {
      let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      for (;;) {
        const nl = buf.indexOf(10);
        if (passing) {
          if (nl < 0) {
            this.push(buf);
            break;
          }
          this.push(buf.subarray(0, nl + 1));
          passing = false;
          buf = buf.subarray(nl + 1);
          continue;
        }
        if (nl < 0) {
          if (pendingBytes + buf.length > MAX_SCREENED_LINE) {
            this.push(Buffer.concat([...pending, buf]));
            pending = [];
            pendingBytes = 0;
            passing = true;
          } else if (buf.length > 0) {
            pending.push(buf);
            pendingBytes += buf.length;
          }
          break;
        }
        const line = Buffer.concat([...pending, buf.subarray(0, nl + 1)]);
        pending = [];
        pendingBytes = 0;
        buf = buf.subarray(nl + 1);
        const { verdict, request, cancelled } = readLine(line.toString('utf8').replace(/\r?\n$/, ''));
        if (verdict === 'drop') continue;
        if (verdict) answer(verdict);
        else {
          if (request !== undefined) onRequest(request, false);
          if (cancelled !== undefined) onRequest(cancelled, true);
          this.push(line);
        }
      }
      done();
    },
    flush(done: TransformCallback) {
      // A last line without a newline is never read by the SDK either; pass it on as it is.
      if (pendingBytes > 0) this.push(Buffer.concat(pending));
      done();
    },
  });
}
