/**
 * The requests a stdio server has been handed and not yet answered, so that a client that writes
 * its requests and closes stdin (a pipe, a script) still gets every answer: when input ends, the
 * server waits for these (at most a while, and not for cancelled ones) before it closes. Requests
 * are told by the stdin screen (serve/stdio-lines.ts); answers are seen by wrapping the
 * transport's send.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface RequestsInFlight {
  /** A request passed to the server. */
  add(id: string | number): void;
  /** The client cancelled it (before or after it came): it is not waited for. */
  cancel(id: string | number): void;
  /** Resolves when every request added is answered or cancelled, after `maxMs`, or when `abort` settles. */
  settled(maxMs: number, abort: Promise<unknown>): Promise<void>;
}

/**
 * The ids of the requests passed to the server (told by the stdin screen) and not yet answered
 * (read by wrapping the transport's send).
 */
export function requestsInFlight(transport: Pick<Transport, 'send'>): RequestsInFlight {
  const pending = new Set<string | number>();
  /** Ids cancelled before their request came: the SDK cancels that request when it comes. */
  const cancelledEarly = new Set<string | number>();
  let wake: (() => void) | undefined;
  const drop = (id: string | number) => {
    if (pending.delete(id)) {
      if (pending.size === 0) wake?.();
    } else cancelledEarly.add(id);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions) => {
    try {
      await send(message, options);
    } finally {
      if (('result' in message || 'error' in message) && message.id !== undefined && message.id !== null) drop(message.id);
    }
  };
  return {
    add: (id) => {
      if (!cancelledEarly.delete(id)) pending.add(id);
    },
    cancel: drop,
    settled: (maxMs, abort) =>
      pending.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, maxMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
            void abort.then(wake);
          }),
  };
}
