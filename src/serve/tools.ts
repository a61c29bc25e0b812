/**
 * The MCP tools `skillc serve` offers, as an explicit registry. Each tool is its input schema
 * (zod shapes, which the SDK checks and turns into the JSON Schema clients see), an output schema
 * when its result is data, and a handler over the served dist that returns a CallToolResult.
 *
 * Answers are the CLI's: `search_skills` ranks with the retriever `skillc query --format json`
 * uses, `retrieve_bundle` and `plan` render with the same formatters as `skillc query [--plan]`.
 * Data results carry `structuredContent` and the same JSON as text (for clients that read text
 * only, as the MCP specification advises); markdown results are text.
 *
 * Problems a caller can fix (an unknown skill or contract, a stale cursor) and problems of the dist
 * (a bundle missing from a damaged dist, a dist that became unreadable) are tool errors
 * (`isError: true`) with one clear sentence, never a crash of the server. Arguments that break the
 * input schema are refused by the SDK before a handler runs, also as tool errors.
 */
import { z } from 'zod';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { renderPlanMarkdown, renderQueryMarkdown } from '../query/render.js';
import { DEFAULT_BUDGET, DEFAULT_K, MIN_BUDGET, noHitReason } from '../query/retriever.js';
import { MAX_RANKED_QUERY_CHARS } from '../query/rank.js';
import { flaggedNotice, readDistText } from '../query/hydrate.js';
import { IndexError } from '../query/graph-index.js';
import { DistReadError } from '../util/confined-read.js';
import { escapeInline } from '../text/terminal.js';
import { closestNames } from '../text/edit-distance.js';
import { stableStringify } from '../util/stable-json.js';
import { ServeError, type ServedDist, type ServedDistHandle, type ServedSkill } from './served-dist.js';

/** Most hits or plan steps one call may ask for: the ranking's cost grows with k. */
export const MAX_K = 100;
/**
 * Largest token budget one call may ask for: about 800 KB of text, well under what MCP clients
 * accept in one message (the SDK's stdio client stops at 10 MiB) and what an agent can read.
 */
export const MAX_BUDGET = 200_000;
/**
 * Most characters of a skill one get_skill_bundle answer (or skill:// read) carries; a longer skill
 * comes in parts (`fromLine`). A 12 MB SKILL.md sent whole broke the SDK's stdio client.
 */
export const MAX_TEXT_CHARS = 1_000_000;
/** Characters of a caller's argument echoed back in an error message. */
const ECHOED_CHARS = 200;
/** Skills per list_skills page. */
export const LIST_PAGE = 100;

const query = z.string().min(1).max(MAX_RANKED_QUERY_CHARS).describe('the task, in plain words');
const k = z.number().int().min(1).max(MAX_K).optional().describe(`at most this many skills (default ${DEFAULT_K})`);
const budget = z.number().int().min(MIN_BUDGET).max(MAX_BUDGET).optional().describe(`token budget of the whole answer, o200k_base tokens (default ${DEFAULT_BUDGET})`);

/** A tool of the registry: its MCP description and its handler over the served dist. */
export interface ServeTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodRawShape;
  readonly outputSchema?: z.ZodRawShape;
  /** `args` have passed inputSchema (the SDK checks them first). */
  readonly handler: (served: ServedDist, args: Record<string, unknown>) => Promise<CallToolResult> | CallToolResult;
}

/** Every tool reads a compiled library and changes nothing. */
export const TOOL_ANNOTATIONS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const hitShape = {
  path: z.string().describe('the skill folder, relative to the library'),
  name: z.string(),
  description: z.string(),
  score: z.number(),
  /** What reading the skill costs. */
  tokens: z.number().int().describe('o200k_base tokens of the skill as an agent reads it'),
  flagged: z.boolean().optional().describe('true when skillc found malicious install steps: its steps are withheld'),
};

const searchSkills: ServeTool = {
  name: 'search_skills',
  title: 'Search skills',
  description: 'Rank the skills of the library for a task (BM25F and graph, as `skillc query`), without their text. Returns each hit\'s path, name, description and score; read one with get_skill_bundle, or get the texts under a budget with retrieve_bundle.',
  inputSchema: { query, k },
  outputSchema: {
    status: z.enum(['ok', 'NO_SKILL_HIT']),
    reason: z.string().optional().describe('why nothing matched (with NO_SKILL_HIT)'),
    hits: z.array(z.object(hitShape)),
  },
  handler(served, args) {
    const ranking = served.retriever.rank(args.query as string, (args.k as number | undefined) ?? DEFAULT_K);
    const hits = ranking.hits.map((h) => ({
      path: h.node.path,
      name: h.node.name,
      description: h.node.description,
      score: h.score,
      tokens: h.node.tokens,
      ...(h.node.flagged ? { flagged: true } : {}),
    }));
    if (hits.length === 0) {
      return data({ status: 'NO_SKILL_HIT', reason: noHitReason(served.retriever.index, ranking, args.query as string), hits });
    }
    return data({ status: 'ok', hits });
  },
};

const retrieveBundle: ServeTool = {
  name: 'retrieve_bundle',
  title: 'Retrieve skills for a task',
  description: 'The skills for a task, each as written (every line), in rank order under a token budget; hits over the budget are listed by path and one line. The same markdown answer as `skillc query`. NO_SKILL_HIT when no skill matches.',
  inputSchema: { query, k, budget },
  async handler(served, args) {
    const result = await served.retriever.query(args.query as string, { k: args.k as number | undefined, budget: args.budget as number | undefined });
    return text(renderQueryMarkdown(result));
  },
};

const plan: ServeTool = {
  name: 'plan',
  title: 'Plan a multi-step task',
  description: 'The skills a multi-step task needs, in the order they are used (producers before consumers along dep and wf edges): an outline with why each step comes where it does, the contracts the steps invoke stated once, then each step\'s skill as written, under a token budget. The same answer as `skillc query --plan`.',
  inputSchema: { query, k: k.describe(`at most this many steps (default ${DEFAULT_K})`), budget },
  outputSchema: {
    status: z.enum(['ok', 'NO_SKILL_HIT']),
    reason: z.string().optional(),
    steps: z.array(z.object({
      step: z.number().int(),
      path: z.string(),
      name: z.string(),
      role: z.enum(['match', 'prerequisite']),
      score: z.number(),
      hydration: z.string().describe('full, truncated, listed (over the budget) or flagged'),
      after: z.array(z.object({ step: z.number().int(), type: z.string(), detail: z.string() })),
      invokes: z.array(z.string()),
    })),
  },
  async handler(served, args) {
    const r = await served.retriever.plan(args.query as string, { k: args.k as number | undefined, budget: args.budget as number | undefined });
    const markdown = renderPlanMarkdown(r);
    const steps = r.steps.map((s) => ({ step: s.rank, path: s.node.path, name: s.node.name, role: s.role, score: s.score, hydration: s.hydration, after: s.after.map((a) => ({ ...a })), invokes: [...s.invokes] }));
    const structured = { status: r.status, ...(r.reason ? { reason: r.reason } : {}), steps };
    // The markdown is what the agent reads; the structure is for programs (the steps without their
    // texts, so that a large answer is not sent twice).
    return { content: [{ type: 'text', text: markdown }], structuredContent: structured };
  },
};

const getSkillBundle: ServeTool = {
  name: 'get_skill_bundle',
  title: 'Read one skill',
  description: 'One skill as an agent reads it (its bundle, or its SKILL.md when the build left it as written), by its path as search_skills or list_skills give it. A skill flagged for malicious install steps is a notice instead; its steps are withheld.',
  inputSchema: {
    skill: z.string().min(1).max(4096).describe('the skill\'s path (e.g. "pdf-text-extract"), as search_skills gives it; a skill:// URI, a "Source:" path of retrieve_bundle, or a name no other skill has also work'),
    fromLine: z.number().int().min(1).optional().describe(`first line to return (default 1); a skill over ${MAX_TEXT_CHARS} characters comes in parts, each saying where the next starts`),
    fromColumn: z.number().int().min(1).optional().describe('with fromLine: the character of that line to start at (default 1); a part that cuts a line longer than itself says where it goes on'),
  },
  handler(served, args) {
    const skill = findSkill(served, args.skill as string);
    return text(textPart(skillText(served, skill), (args.fromLine as number | undefined) ?? 1, skill.path, (args.fromColumn as number | undefined) ?? 1));
  },
};

const getContract: ServeTool = {
  name: 'get_contract',
  title: 'Read one contract',
  description: 'A contract of the library (a recurring procedure the build factored out and verified), by id as bundles invoke it: its readable text (signature, inputs, side effects, procedure) and its JSON record.',
  inputSchema: { id: z.string().min(1).max(512).describe('the contract id, e.g. "git-clone-url" (a "contract:" prefix is accepted)') },
  outputSchema: {
    id: z.string(),
    markdown: z.string(),
    contract: z.record(z.string(), z.unknown()).describe('contracts/<id>.json as the build wrote it'),
  },
  handler(served, args) {
    const { id, markdown, contract } = readContract(served, args.id as string);
    return { content: [{ type: 'text', text: markdown }], structuredContent: { id, markdown, contract } };
  },
};

const listSkills: ServeTool = {
  name: 'list_skills',
  title: 'List skills',
  description: `Every skill of the library by path, with its name and description, ${LIST_PAGE} per page; pass nextCursor back as cursor for the next page.`,
  inputSchema: { cursor: z.string().max(256).optional().describe('nextCursor of the previous page') },
  outputSchema: {
    total: z.number().int(),
    skills: z.array(z.object({ path: z.string(), name: z.string(), description: z.string() })),
    nextCursor: z.string().optional(),
  },
  handler: (served, args) => data(listPage(served, args.cursor as string | undefined)),
};

/** One page of list_skills: the skills from the cursor on, and the cursor of the next page if any. */
export function listPage(served: ServedDist, cursor: string | undefined, pageSize = LIST_PAGE): { total: number; skills: { path: string; name: string; description: string }[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : readCursor(served, cursor);
  const skills = served.skills.slice(start, start + pageSize).map((s) => ({ path: s.path, name: s.name, description: s.description }));
  const end = start + skills.length;
  return { total: served.skills.length, skills, ...(end < served.skills.length ? { nextCursor: makeCursor(served, end) } : {}) };
}

/** The registry: every tool the server lists, in this order. */
export const SERVE_TOOLS: readonly ServeTool[] = [searchSkills, retrieveBundle, getSkillBundle, getContract, plan, listSkills];

/** A caller's mistake or a dist problem, reported as a tool error. */
export class ToolInputError extends Error {}

/**
 * Runs a tool's handler; the errors a caller or a damaged dist can cause become tool errors. A read
 * that failed because a build replaced the dist while the call ran (the index loaded, the files
 * gone or new) is run once more against the rebuilt dist instead of blaming the dist.
 */
export async function runTool(tool: ServeTool, handle: ServedDistHandle, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    let served = handle.current();
    try {
      return await tool.handler(served, args);
    } catch (err) {
      if (!(err instanceof DistReadError) || !handle.stale(served)) throw err;
      served = await handle.settled();
      try {
        return await tool.handler(served, args);
      } catch (again) {
        if (again instanceof DistReadError && handle.stale(served)) throw new ServeError(`the library at ${served.dist} is being rebuilt; call again in a moment`);
        throw again;
      }
    }
  } catch (err) {
    if (err instanceof ToolInputError || err instanceof ServeError || err instanceof IndexError || err instanceof DistReadError || err instanceof RangeError) {
      return { isError: true, content: [{ type: 'text', text: `${tool.name}: ${escapeInline(err.message)}` }] };
    }
    throw err;
  }
}

function data(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: stableStringify(value) }], structuredContent: value };
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/**
 * A skill by the ways answers name it: its path (`pdf`, `anthropic/pdf`), `skill:<path>`, a
 * `skill://` URI, the `Source:` path of a query answer (the file shown: `bundles/<path>.md`, or
 * `skills/<path>/SKILL.md` for a skill the build left as written); else by a name no other skill
 * has. Only ever looked up.
 */
export function findSkill(served: ServedDist, asked: string): ServedSkill {
  const key = skillKey(asked);
  const byPath = served.skillByPath.get(key);
  if (byPath) return byPath;
  const file = /^(?:skills\/)?(.+)\/SKILL\.md$/.exec(key) ?? /^bundles\/(.+)\.md$/.exec(key);
  const byFile = file ? served.skillByPath.get(file[1]!) : undefined;
  if (byFile) return byFile;
  const named = served.skills.filter((s) => s.name === key);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) {
    throw new ToolInputError(`${named.length} skills are named ${echo(key)}; ask for one by path: ${named.slice(0, 5).map((s) => s.path).join(', ')}${named.length > 5 ? ', …' : ''}`);
  }
  const near = key.length <= ECHOED_CHARS ? closestNames(key, served.skills.map((s) => s.path)) : [];
  const hint = near.length > 0 ? `; did you mean ${near.join(', ')}?` : '; list_skills or search_skills give the paths';
  throw new ToolInputError(`no skill ${echo(key)} in the library${hint}`);
}

export const SKILL_SCHEME = 'skill://';
export const CONTRACT_SCHEME = 'contract://';

/**
 * What a `scheme` URI names: the rest after the scheme, its query and fragment dropped and each
 * path segment decoded (the inverse of skillUri and contractUri); `value` as it is when it is not
 * such a URI, and the undecoded rest when its percent-encoding is invalid (then looked up as it is,
 * and reported unknown).
 */
export function uriPath(value: string, scheme: string): string {
  if (!value.startsWith(scheme)) return value;
  const rest = value.slice(scheme.length).replace(/[?#].*$/s, '');
  try {
    return rest.split('/').map(decodeURIComponent).join('/');
  } catch {
    return rest;
  }
}

/** `asked` without a `skill://` or `skill:` prefix (see uriPath) and trailing slashes. */
export function skillKey(asked: string): string {
  return uriPath(asked, SKILL_SCHEME).replace(/^skill:/, '').replace(/\/+$/, '');
}

/** A caller's argument quoted for an error message, at most ECHOED_CHARS characters of it. */
export function echo(value: string): string {
  return value.length > ECHOED_CHARS ? `${JSON.stringify(value.slice(0, ECHOED_CHARS))}… (${value.length} characters)` : JSON.stringify(value);
}

/**
 * The text from line `fromLine` (its character `fromColumn`) on, at most MAX_TEXT_CHARS characters
 * of whole lines; a part that stops early ends with a note saying which lines it holds and where
 * the next part starts. A line longer than a part is cut, never between the two halves of a
 * surrogate pair, and the note gives the column the next part starts at.
 */
export function textPart(whole: string, fromLine: number, skillPath: string, fromColumn = 1): string {
  const lines = whole.split('\n');
  if (fromLine > lines.length) throw new ToolInputError(`fromLine ${fromLine} is past the end: the skill has ${lines.length} lines`);
  const lineLength = lines[fromLine - 1]!.length;
  if (fromColumn > Math.max(1, lineLength)) throw new ToolInputError(`fromColumn ${fromColumn} is past the end of line ${fromLine}, which has ${lineLength} characters`);
  const start = lines.slice(0, fromLine - 1).reduce((n, l) => n + l.length + 1, 0) + fromColumn - 1;
  if (whole.length - start <= MAX_TEXT_CHARS) return whole.slice(start);
  const next = (line: number, column: number) => `{"skill": ${JSON.stringify(skillPath)}, "fromLine": ${line}${column > 1 ? `, "fromColumn": ${column}` : ''}}`;
  let end = start;
  let line = fromLine - 1;
  // Whole lines while they fit (the first from fromColumn on).
  while (line < lines.length && end + lines[line]!.length + 1 - (line === fromLine - 1 ? fromColumn - 1 : 0) - start <= MAX_TEXT_CHARS) {
    end += lines[line]!.length + 1 - (line === fromLine - 1 ? fromColumn - 1 : 0);
    line++;
  }
  if (line === fromLine - 1) {
    // The line goes on past a part: cut it at the cap, or one character earlier inside a surrogate pair.
    end = start + MAX_TEXT_CHARS;
    const code = whole.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    const column = fromColumn + (end - start);
    // A cut at the line's end (or before only its \r) leaves nothing of it: the part takes the line
    // ending too, and the next part is the next line.
    const lineEnd = start - (fromColumn - 1) + lineLength;
    if (lineEnd - end <= 1 && /^\r?$/.test(whole.slice(end, lineEnd))) {
      // On the last line, that \r is all there is left: the part takes it and ends the text.
      if (fromLine === lines.length) return whole.slice(start);
      return `${whole.slice(start, lineEnd + 1)}\n[skillc: lines ${fromLine}–${fromLine} of ${lines.length}; call get_skill_bundle with ${next(fromLine + 1, 1)} for the rest]\n`;
    }
    return `${whole.slice(start, end)}\n[skillc: line ${fromLine}, characters ${fromColumn}–${column - 1} of ${lineLength}; call get_skill_bundle with ${next(fromLine, column)} for the rest]\n`;
  }
  return `${whole.slice(start, end)}\n[skillc: lines ${fromLine}–${line} of ${lines.length}; call get_skill_bundle with ${next(line + 1, 1)} for the rest]\n`;
}

/** What an agent reads for a skill: its bundle, or the notice that withholds a flagged skill's steps. */
export function skillText(served: ServedDist, skill: ServedSkill): string {
  if (skill.node.flagged) return `# ${escapeInline(skill.name)}\n\n${flaggedNotice(skill.node.flagged)}`;
  return readDistText(served.dist, skill.node.bundle, 'bundle', skill.node.id);
}

/** A contract's readable text and JSON record, by id (looked up in the dist's contracts, never used as a path unchecked). */
export function readContract(served: ServedDist, asked: string): { id: string; markdown: string; contract: Record<string, unknown> } {
  const id = uriPath(asked, CONTRACT_SCHEME).replace(/^contract:/, '');
  if (!served.contracts.includes(id)) {
    const near = id.length <= ECHOED_CHARS ? closestNames(id, served.contracts) : [];
    const hint = near.length > 0 ? `; did you mean ${near.join(', ')}?` : served.contracts.length === 0 ? '; this library has no contracts' : `; it has ${served.contracts.length}, e.g. ${served.contracts.slice(0, 3).join(', ')}`;
    throw new ToolInputError(`no contract ${echo(id)} in the library${hint}`);
  }
  const markdown = readDistText(served.dist, `contracts/${id}.md`, 'contract', id);
  const json = readDistText(served.dist, `contracts/${id}.json`, 'contract', id);
  let contract: unknown;
  try {
    contract = JSON.parse(json);
  } catch (err) {
    throw new ServeError(`contracts/${id}.json in ${served.dist} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof contract !== 'object' || contract === null || Array.isArray(contract)) throw new ServeError(`contracts/${id}.json in ${served.dist} is not a JSON object`);
  return { id, markdown, contract: contract as Record<string, unknown> };
}

/**
 * list_skills cursors: the offset of the next page and the build it belongs to, base64url. A cursor
 * of an earlier build would page through a different list, so it is refused rather than followed.
 */
function makeCursor(served: ServedDist, offset: number): string {
  return Buffer.from(`${served.generation}:${offset}`, 'utf8').toString('base64url');
}

function readCursor(served: ServedDist, cursor: string): number {
  const m = /^([0-9a-f]{16}):(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new ToolInputError('the cursor is not one list_skills gave; omit it to start from the first page');
  if (m[1] !== served.generation) throw new ToolInputError('the library was rebuilt since this cursor was given; list again from the first page');
  const offset = Number(m[2]);
  if (offset > served.skills.length) throw new ToolInputError('the cursor is past the end of the list; omit it to start from the first page');
  return offset;
}
