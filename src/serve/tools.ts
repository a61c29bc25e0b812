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
import { ServeError, type ServedDist, type ServedSkill } from './served-dist.js';

/** Most hits or plan steps one call may ask for: the ranking's cost grows with k. */
export const MAX_K = 100;
/** Largest token budget one call may ask for (a bundle answer of about 4 MB of text). */
export const MAX_BUDGET = 1_000_000;
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
      return data({ status: 'NO_SKILL_HIT', reason: noHitReason(served.retriever.index, ranking), hits });
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
    markdown: z.string().describe('the plan as an agent reads it (also the text content)'),
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
    const structured = { status: r.status, ...(r.reason ? { reason: r.reason } : {}), markdown, steps };
    // The markdown is what the agent reads; the structure is for programs (and repeats the markdown).
    return { content: [{ type: 'text', text: markdown }], structuredContent: structured };
  },
};

const getSkillBundle: ServeTool = {
  name: 'get_skill_bundle',
  title: 'Read one skill',
  description: 'One skill as an agent reads it (its bundle, or its SKILL.md when the build left it as written), by its path as search_skills or list_skills give it. A skill flagged for malicious install steps is a notice instead; its steps are withheld.',
  inputSchema: { skill: z.string().min(1).max(4096).describe('the skill\'s path (e.g. "pdf-text-extract"), or its name when no other skill has it') },
  handler(served, args) {
    const skill = findSkill(served, args.skill as string);
    return text(skillText(served, skill));
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

/** Runs a tool's handler; the errors a caller or a damaged dist can cause become tool errors. */
export async function runTool(tool: ServeTool, served: () => ServedDist, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return await tool.handler(served(), args);
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

/** A skill by path (or `skill:<path>`), else by a name no other skill has. */
export function findSkill(served: ServedDist, asked: string): ServedSkill {
  const key = asked.replace(/^skill:/, '').replace(/\/+$/, '');
  const byPath = served.skillByPath.get(key);
  if (byPath) return byPath;
  const named = served.skills.filter((s) => s.name === key);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) {
    throw new ToolInputError(`${named.length} skills are named ${JSON.stringify(key)}; ask for one by path: ${named.slice(0, 5).map((s) => s.path).join(', ')}${named.length > 5 ? ', …' : ''}`);
  }
  const near = closestNames(key, served.skills.map((s) => s.path));
  const hint = near.length > 0 ? `; did you mean ${near.join(', ')}?` : '; list_skills or search_skills give the paths';
  throw new ToolInputError(`no skill ${JSON.stringify(key)} in the library${hint}`);
}

/** What an agent reads for a skill: its bundle, or the notice that withholds a flagged skill's steps. */
export function skillText(served: ServedDist, skill: ServedSkill): string {
  if (skill.node.flagged) return `# ${escapeInline(skill.name)}\n\n${flaggedNotice(skill.node.flagged)}`;
  return readDistText(served.dist, skill.node.bundle, 'bundle', skill.node.id);
}

/** A contract's readable text and JSON record, by id (looked up in the dist's contracts, never used as a path unchecked). */
export function readContract(served: ServedDist, asked: string): { id: string; markdown: string; contract: Record<string, unknown> } {
  const id = asked.replace(/^contract:/, '');
  if (!served.contracts.includes(id)) {
    const near = closestNames(id, served.contracts);
    const hint = near.length > 0 ? `; did you mean ${near.join(', ')}?` : served.contracts.length === 0 ? '; this library has no contracts' : `; it has ${served.contracts.length}, e.g. ${served.contracts.slice(0, 3).join(', ')}`;
    throw new ToolInputError(`no contract ${JSON.stringify(id)} in the library${hint}`);
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
