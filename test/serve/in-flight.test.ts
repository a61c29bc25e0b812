/**
 * serve/in-flight.ts: which requests a stdio server waits for when its input ends, and what ends
 * the wait (every answer sent, a cancel, the time limit, a signal).
 */
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { requestsInFlight } from '../../src/serve/in-flight.js';

function fakeTransport() {
  const sent: JSONRPCMessage[] = [];
  const transport = { send: async (m: JSONRPCMessage) => void sent.push(m) };
  return { transport, sent };
}

const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });
const never = new Promise<never>(() => {});

/** 'settled' when `p` settles within `ms`, else 'waiting'. */
async function within(p: Promise<void>, ms: number): Promise<'settled' | 'waiting'> {
  return Promise.race([p.then(() => 'settled' as const), new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), ms))]);
}

describe('requestsInFlight', () => {
  it('does not wait when nothing is in flight', async () => {
    const flight = requestsInFlight(fakeTransport().transport);
    expect(await within(flight.settled(60_000, never), 50)).toBe('settled');
  });

  it('waits for every request added until its answer is sent, and sends the answers on', async () => {
    const { transport, sent } = fakeTransport();
    const flight = requestsInFlight(transport);
    flight.add(1);
    flight.add(2);
    const settled = flight.settled(60_000, never);
    await transport.send(answer(1));
    // A notification and a request of the server's own answer nothing.
    await transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: 1 } });
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await within(settled, 50)).toBe('waiting');
    await transport.send({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'failed' } });
    expect(await within(settled, 1000)).toBe('settled');
    expect(sent).toHaveLength(4);
  });

  it('does not wait for a request cancelled after it came, or before', async () => {
    const flight = requestsInFlight(fakeTransport().transport);
    flight.add(1);
    flight.cancel(1);
    flight.cancel('b');
    flight.add('b');
    expect(await within(flight.settled(60_000, never), 50)).toBe('settled');
  });

  it('ends the wait on a signal, and after the time limit', async () => {
    const flight = requestsInFlight(fakeTransport().transport);
    flight.add(7);
    let signal!: () => void;
    const signalled = new Promise<void>((r) => (signal = r));
    const waiting = flight.settled(60_000, signalled);
    expect(await within(waiting, 50)).toBe('waiting');
    signal();
    expect(await within(waiting, 1000)).toBe('settled');
    // Still unanswered: a later wait ends at its limit.
    expect(await within(flight.settled(100, never), 2000)).toBe('settled');
  });
});
