/**
 * `skillc serve --dist <dir>`: the compiled library as a Model Context Protocol server (SPEC §10),
 * over stdio by default or Streamable HTTP with `--http <port>`.
 *
 * On stdio, stdout is the protocol channel: nothing else is ever written to it; what the server has
 * to say (started, reloaded, a rebuilt dist it cannot load) goes to stderr, one line each. A dist
 * that is missing or cannot be served at start is one line and exit 2, before any protocol traffic.
 * The server ends when its client closes stdin (stdio) or on SIGINT or SIGTERM (exit 0).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpServer } from '../serve/mcp-server.js';
import { startHttpFront, isLoopback, type HttpFront } from '../serve/http-front.js';
import { openServedDist, ServeError, type ServedDist, type ServedDistHandle } from '../serve/served-dist.js';
import { escapeInline } from '../text/terminal.js';
import { INVALID_REQUEST_MESSAGE, screenedStdin } from '../serve/stdio-lines.js';
import { requestsInFlight } from '../serve/in-flight.js';
import { errnoText } from '../util/errno.js';

export interface ServeCommandOptions {
  readonly dist: string;
  /** Serve Streamable HTTP on this port (0: any free port) instead of stdio. */
  readonly http?: number;
  readonly host?: string;
  /** Host names accepted in Host and Origin headers besides loopback names (and, off loopback, IP literals). */
  readonly allowHosts?: readonly string[];
  /** How often manifest.json is polled for a rebuild, in milliseconds. */
  readonly watchInterval: number;
  readonly quiet?: boolean;
}

/** How long, at most, the requests in flight when stdin ends are waited for. */
const IN_FLIGHT_WAIT_MS = 60_000;


export interface ServeIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

export async function serveCommand(opts: ServeCommandOptions, io: ServeIo): Promise<number> {
  const say = (line: string) => {
    if (!opts.quiet) io.stderr.write(`skillc serve: ${line}\n`);
  };
  if ((opts.host !== undefined || opts.allowHosts !== undefined) && opts.http === undefined) {
    io.stderr.write(`skillc serve: ${opts.host !== undefined ? '--host' : '--allow-host'} needs --http <port> (stdio has no address)\n`);
    return 2;
  }
  let handle: ServedDistHandle;
  let served: ServedDist;
  try {
    handle = openServedDist(opts.dist);
    served = handle.current();
  } catch (err) {
    if (err instanceof ServeError) {
      io.stderr.write(`skillc serve: ${escapeInline(err.message)}\n`);
      return 2;
    }
    throw err;
  }
  const what = `${escapeInline(opts.dist)} (${served.skills.length} skills, ${served.contracts.length} contracts)`;

  /** The servers to tell that the resource list changed. */
  let servers: () => McpServer[] = () => [];
  handle.watch(opts.watchInterval, (result) => {
    if (result instanceof ServeError) {
      io.stderr.write(`skillc serve: the rebuilt dist cannot be served: ${escapeInline(result.message)}\n`);
      return;
    }
    say(`reloaded ${escapeInline(opts.dist)} (${result.skills.length} skills, ${result.contracts.length} contracts)`);
    for (const s of servers()) if (s.isConnected()) s.sendResourceListChanged();
  });

  if (opts.http === undefined) {
    const server = createMcpServer(handle);
    servers = () => [server];
    // The SDK waits for 'drain' once per message written while stdout is full; many large answers
    // in flight would pass Node's default of 10 listeners and print a warning.
    (io.stdout as NodeJS.WriteStream).setMaxListeners?.(0);
    // Blank lines are dropped and a bad request with a readable id is answered under that id
    // before the SDK sees them (serve/stdio-lines.ts).
    let inFlight: ReturnType<typeof requestsInFlight> | undefined;
    const screen = screenedStdin(
      (reply) => {
        io.stdout.write(`${JSON.stringify(reply)}\n`);
        io.stderr.write(`skillc serve: ${INVALID_REQUEST_MESSAGE} (id ${escapeInline(JSON.stringify(reply.id).slice(0, 80))}); it was answered with error -32600\n`);
      },
      (id, cancelled) => (cancelled ? inFlight?.cancel(id) : inFlight?.add(id)),
    );
    const transport = new StdioServerTransport(screen as unknown as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream);
    inFlight = requestsInFlight(transport);
    io.stdin.pipe(screen);
    // The SDK drops a line that is not JSON, or not a JSON-RPC 2.0 message, without a word: a client
    // that sent it with an id would wait for ever. It gets the spec's error (id null: the screen
    // above answered every line whose id could be read), and stderr says what was wrong. (Set before
    // connect, which chains its own handler after this one.)
    transport.onerror = (err: Error) => {
      const parse = err instanceof SyntaxError;
      const invalid = !parse && err.name === 'ZodError';
      if (parse || invalid) {
        const message = parse ? 'Parse error: a line on stdin is not JSON' : INVALID_REQUEST_MESSAGE;
        io.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: parse ? -32700 : -32600, message } })}\n`);
        io.stderr.write(`skillc serve: ${message}; it was answered with error ${parse ? -32700 : -32600}\n`);
      } else io.stderr.write(`skillc serve: ${escapeInline(err.message.slice(0, 500))}\n`);
    };
    const signalled = new Promise<'signal'>((resolve) => onSignal(() => resolve('signal')));
    const ended = Promise.race([
      signalled,
      new Promise<'input' | 'closed'>((resolve) => {
        // The screen ends after stdin does, once the lines it holds have gone to the SDK.
        screen.once('end', () => resolve('input'));
        io.stdin.once('error', () => screen.end());
        transport.onclose = () => resolve('closed');
      }),
    ]);
    await server.connect(transport);
    say(`serving ${what} on stdio`);
    // A client that writes its requests and closes stdin (a pipe, a script) still gets every answer:
    // the requests in flight when input ends (not those it cancelled) are answered before the
    // server closes. A signal ends the wait.
    if ((await ended) === 'input') await inFlight.settled(IN_FLIGHT_WAIT_MS, signalled);
    await server.close().catch(() => undefined);
    // The SDK pauses the stream it read (the screen); stdin, piped into it, would go on reading and
    // keep the process alive after a signal.
    io.stdin.unpipe(screen);
    if (io.stdin.listenerCount('data') === 0) io.stdin.pause();
    handle.close();
    return 0;
  }

  const host = opts.host ?? '127.0.0.1';
  let front: HttpFront;
  try {
    front = await startHttpFront(() => createMcpServer(handle), { host, port: opts.http, ...(opts.allowHosts ? { allowedHosts: opts.allowHosts } : {}) });
  } catch (err) {
    handle.close();
    io.stderr.write(`skillc serve: cannot listen on ${escapeInline(host)}:${opts.http}: ${errnoText(err)}\n`);
    return 2;
  }
  servers = () => front.servers();
  say(`serving ${what} at ${front.url}`);
  if (!isLoopback(host)) io.stderr.write(`skillc serve: warning: listening on ${escapeInline(host)}, not loopback; the server has no authentication, so anyone who can reach it can read the library\n`);
  await new Promise<void>((resolve) => onSignal(resolve));
  await front.close();
  handle.close();
  return 0;
}

/** Resolves on the first SIGINT or SIGTERM; a second one ends the process as usual. */
function onSignal(resolve: () => void): void {
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
}
