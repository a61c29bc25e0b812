/** The screen in front of the SDK's stdio reader (src/serve/stdio-lines.ts). */
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { screenedStdin, screenLine, type InvalidRequestReply } from '../../src/serve/stdio-lines.js';

describe('screenLine', () => {
  it('drops blank lines, answers a bad request under its readable id, passes the rest on', () => {
    expect(screenLine('')).toBe('drop');
    expect(screenLine(' \t\r')).toBe('drop');
    expect(screenLine('{"jsonrpc":"1.0","id":"a","method":"ping"}')).toMatchObject({ id: 'a', error: { code: -32600 } });
    expect(screenLine('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toBeNull();
    // A malformed response gets no answer: an error under its id could pass for the answer to a request.
    expect(screenLine('{"jsonrpc":"2.0","id":8,"result":"x"}')).toBe('drop');
    expect(screenLine('{"jsonrpc":"1.0","id":8,"error":{}}')).toBe('drop');
    expect(screenLine('{"jsonrpc":"2.0","id":8,"result":{}}')).toBeNull();
    // No id to answer under, or not JSON: the SDK's own error (id null) follows.
    expect(screenLine('{"method":"ping"}')).toBeNull();
    expect(screenLine('{"id":null}')).toBeNull();
    expect(screenLine('{garbage')).toBeNull();
    expect(screenLine('[{"id":1}]')).toBeNull();
  });
});

describe('screenedStdin', () => {
  it('reassembles lines split across chunks and passes good ones on byte for byte', async () => {
    const good = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
    const bad = '{"jsonrpc":"1.0","id":7}\n';
    const input = `${good}\n${bad}${good}`;
    // Chunks of 5 bytes: lines arrive in pieces.
    const chunks = Array.from({ length: Math.ceil(input.length / 5) }, (_, i) => Buffer.from(input.slice(i * 5, i * 5 + 5)));
    const replies: InvalidRequestReply[] = [];
    const screen = Readable.from(chunks).pipe(screenedStdin((r) => replies.push(r)));
    let out = '';
    for await (const c of screen) out += (c as Buffer).toString('utf8');
    expect(out).toBe(good + good);
    expect(replies.map((r) => r.id)).toEqual([7]);
  });
});
