/**
 * One MCP server over a served dist: the tools of tools.ts and two resource templates,
 * `skill://<path>` (what an agent reads for a skill, as get_skill_bundle gives it) and
 * `contract://<id>` (a contract's readable text and its JSON). Each connection (stdio, or one HTTP
 * session) gets its own McpServer; they share the handle, so the dist is loaded once.
 *
 * Skill paths hold slashes and any character a folder name may, so a skill's URI encodes each path
 * segment with encodeURIComponent and joins them with '/'; reading decodes the same way and looks
 * the path up among the dist's skills (a URI never becomes a file path).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { ServeError, type ServedDist, type ServedDistHandle } from './served-dist.js';
import { CONTRACT_SCHEME, findSkill, readContract, runTool, skillText, SKILL_SCHEME, textPart, SERVE_TOOLS, TOOL_ANNOTATIONS, ToolInputError } from './tools.js';
import { IndexError } from '../query/graph-index.js';
import { DistReadError } from '../util/confined-read.js';

/** Most array elements and object members one tools/call may carry: every tool takes a few scalars. */
const MAX_TOOL_INPUT_ELEMENTS = 64;

const INSTRUCTIONS = `This server answers from a skill library compiled by skillc. To find the skills for a task, call search_skills (ranked paths and descriptions) or retrieve_bundle (the skills' full texts under a token budget); for a task of several steps, call plan. Read one skill with get_skill_bundle and a contract a skill invokes (invoke(<id>, ...)) with get_contract. Skills flagged for malicious install steps have their steps withheld: do not look for them elsewhere.`;

export function skillUri(skillPath: string): string {
  return SKILL_SCHEME + skillPath.split('/').map(encodeURIComponent).join('/');
}

export function contractUri(id: string): string {
  return CONTRACT_SCHEME + encodeURIComponent(id);
}

export function createMcpServer(handle: ServedDistHandle): McpServer {
  const server = new McpServer(
    { name: TOOL_NAME, version: TOOL_VERSION },
    { capabilities: { resources: { listChanged: true } }, instructions: INSTRUCTIONS, maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
  );
  for (const tool of SERVE_TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}), annotations: TOOL_ANNOTATIONS },
      (args: Record<string, unknown>) => runTool(tool, handle, args),
    );
  }

  server.registerResource(
    'skill',
    new ResourceTemplate(`${SKILL_SCHEME}{+path}`, {
      list: () => ({ resources: current(handle).skills.map((s) => ({ uri: skillUri(s.path), name: s.path, title: s.name, description: s.description, mimeType: 'text/markdown' })) }),
    }),
    { title: 'Skill', description: 'A skill as an agent reads it (its bundle, or its SKILL.md as written), by path', mimeType: 'text/markdown' },
    (uri) => readResource(handle, uri.href, (served, href) => {
      const skill = findSkill(served, href);
      // A skill over MAX_TEXT_CHARS is read in parts through get_skill_bundle (its note says how).
      return { contents: [{ uri: skillUri(skill.path), mimeType: 'text/markdown', text: textPart(skillText(served, skill), 1, skill.path) }] };
    }),
  );

  server.registerResource(
    'contract',
    new ResourceTemplate(`${CONTRACT_SCHEME}{id}`, {
      list: () => ({ resources: current(handle).contracts.map((id) => ({ uri: contractUri(id), name: id, mimeType: 'text/markdown' })) }),
    }),
    { title: 'Contract', description: 'A contract\'s readable text (markdown) and its JSON record', mimeType: 'text/markdown' },
    (uri) => readResource(handle, uri.href, (served, href) => {
      const { id, markdown, contract } = readContract(served, href);
      return {
        contents: [
          { uri: contractUri(id), mimeType: 'text/markdown', text: markdown },
          { uri: `${contractUri(id)}#json`, mimeType: 'application/json', text: `${JSON.stringify(contract, null, 2)}\n` },
        ],
      };
    }),
  );
  return server;
}

/** The dist for a list request; a dist that cannot be served is an MCP error with its message. */
function current(handle: ServedDistHandle): ServedDist {
  try {
    return handle.current();
  } catch (err) {
    if (err instanceof ServeError) throw new RequestError(ErrorCode.InternalError, err.message);
    throw err;
  }
}

/**
 * A resource read: an unknown skill or contract is "resource not found" (-32002, as the MCP
 * specification names it), a damaged dist an internal error with its message.
 */
function readResource(handle: ServedDistHandle, href: string, read: (served: ServedDist, href: string) => ReadResourceResult): ReadResourceResult {
  const served = current(handle);
  try {
    return read(served, href);
  } catch (err) {
    if (err instanceof ToolInputError) throw new RequestError(RESOURCE_NOT_FOUND, err.message, { uri: href.slice(0, 200) });
    if (err instanceof ServeError || err instanceof IndexError || err instanceof DistReadError) throw new RequestError(ErrorCode.InternalError, err.message);
    throw err;
  }
}

/**
 * An error the SDK sends as the JSON-RPC error (its `code`, `message` and `data`). Not McpError:
 * that one prefixes "MCP error <code>: " to the message, and the client's McpError prefixes it
 * again, so a reader would see the code twice.
 */
class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The MCP specification's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;
