/**
 * `skillc serve --http <port>`: the MCP Streamable HTTP transport on one endpoint, `/mcp`, with a
 * session per client (the SDK's StreamableHTTPServerTransport, one McpServer per session, all
 * sharing the served dist).
 *
 * Bound to 127.0.0.1 unless told otherwise. A server is reachable from a web page through DNS
 * rebinding (a hostile name made to resolve to the server's address), which needs a host *name*.
 * So the Host header, and the Origin header when a browser sends one, must name a loopback host;
 * on a bind to another address (`--host`, the user's choice) also an IP address literal or a name
 * given with `--allow-host`. Anything else is 403. The server has no authentication, which the
 * command says when it starts on a non-loopback address.
 *
 * Bodies are read up to 4 MiB (413 beyond). Sessions are kept in least-recently-used order and at
 * most MAX_SESSIONS at once: most clients never end theirs with DELETE, so the oldest is closed to
 * make room rather than refusing the new one.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const MCP_PATH = '/mcp';
export const MAX_SESSIONS = 64;
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export interface HttpFrontOptions {
  readonly host: string;
  readonly port: number;
  readonly maxSessions?: number;
  /** Host names (lower case) accepted in Host and Origin besides loopback names and, off loopback, IP literals. */
  readonly allowedHosts?: readonly string[];
}

export interface HttpFront {
  /** e.g. http://127.0.0.1:8808/mcp */
  readonly url: string;
  /** The servers of the open sessions (to notify them of a reloaded dist). */
  servers(): McpServer[];
  close(): Promise<void>;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
}

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Starts listening; rejects with the listen error (EADDRINUSE, EACCES…). */
export async function startHttpFront(makeServer: () => McpServer, options: HttpFrontOptions): Promise<HttpFront> {
  const sessions = new Map<string, Session>();
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  const accepted = acceptedHost(isLoopback(options.host), new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase())));

  const closeSession = async (id: string): Promise<void> => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.transport.close().catch(() => undefined);
    await s.server.close().catch(() => undefined);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== MCP_PATH) return reply(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
    const refusal = foreignHostOrOrigin(req, accepted);
    if (refusal) return reply(res, 403, refusal);
    const sessionId = header(req, 'mcp-session-id');
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && session) {
      // Most recently used last: the first entry is the one evicted.
      sessions.delete(sessionId);
      sessions.set(sessionId, session);
    }
    if (req.method === 'POST') {
      const body = await readBody(req);
      if (body === 'too-large') return reply(res, 413, `the request body is over ${MAX_BODY_BYTES} bytes`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return rpcError(res, 400, -32700, 'Parse error: the body is not JSON');
      }
      if (session) return session.transport.handleRequest(req, res, parsed);
      if (sessionId !== undefined) return rpcError(res, 404, -32001, 'Session not found: initialize a new session');
      if (!isInitializeRequest(parsed)) return rpcError(res, 400, -32000, 'Bad Request: no session; the first request must be initialize');
      while (sessions.size >= maxSessions) await closeSession(sessions.keys().next().value!);
      const server = makeServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, parsed);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!session) return rpcError(res, sessionId === undefined ? 400 : 404, sessionId === undefined ? -32000 : -32001, sessionId === undefined ? 'Bad Request: no session id' : 'Session not found');
      return session.transport.handleRequest(req, res);
    }
    res.setHeader('Allow', 'GET, POST, DELETE');
    return reply(res, 405, `method ${req.method ?? ''} not allowed`);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A transport error after the headers went out cannot be answered; the connection is ended.
      if (!res.headersSent) rpcError(res, 500, -32603, `internal error: ${err instanceof Error ? err.message : String(err)}`);
      else res.end();
    });
  });
  // Streamable HTTP keeps a GET stream open for server notifications; idle keep-alive sockets of
  // clients that went away are dropped after the default timeouts.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostPart}:${address.port}${MCP_PATH}`,
    servers: () => [...sessions.values()].map((s) => s.server),
    async close() {
      await Promise.all([...sessions.keys()].map(closeSession));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Which host names a request may use: loopback ones; off loopback also IP literals and the allowed names. */
function acceptedHost(loopbackBind: boolean, allowed: ReadonlySet<string>): (host: string) => boolean {
  return (host) => {
    const h = host.toLowerCase();
    if (isLoopback(h) || allowed.has(h)) return true;
    return !loopbackBind && (isIP(h) !== 0 || (h.startsWith('[') && isIP(h.slice(1, -1)) !== 0));
  };
}

/** Why a request's Host or Origin names a host it may not (DNS rebinding), or null when both are accepted. */
function foreignHostOrOrigin(req: http.IncomingMessage, accepted: (host: string) => boolean): string | null {
  const host = header(req, 'host');
  if (host === undefined || !accepted(hostName(host))) return `Host ${JSON.stringify((host ?? '').slice(0, 100))} is not a name this server answers to (see skillc serve --allow-host)`;
  const origin = header(req, 'origin');
  if (origin === undefined) return null;
  let originHost: string;
  try {
    originHost = new URL(origin).hostname;
  } catch {
    return `Origin ${JSON.stringify(origin.slice(0, 100))} is not a URL`;
  }
  return accepted(originHost) ? null : `Origin ${JSON.stringify(origin.slice(0, 100))} is not an origin this server answers to`;
}

/** The host of a Host header without its port ("[::1]:80" → "[::1]"). */
function hostName(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
}

function readBody(req: http.IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      req.resume();
      resolve('too-large');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function reply(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
}

function rpcError(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
