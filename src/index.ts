/**
 * skillc as a library. For now: retrieval over a built dist/, for agents and servers that keep the
 * index loaded and answer many queries (`skillc query` is a thin wrapper around the same calls).
 */
export { openRetriever, DEFAULT_BUDGET, DEFAULT_K, MIN_BUDGET, type PlanResult, type PlannedContract, type PlannedStep, type QueryOptions, type QueryResult, type Retriever } from './query/retriever.js';
export { renderPlanJson, renderPlanMarkdown, renderQueryJson, renderQueryMarkdown } from './query/render.js';
export { IndexError } from './query/graph-index.js';
export { DistReadError } from './util/confined-read.js';
export type { RankedHit, HitScores, Ranking } from './query/rank.js';
export type { HydratedHit, Hydration } from './query/hydrate.js';
export type { GraphDocument, GraphEdge, GraphNode, ParentNode, ContractNode, EdgeType } from './graph/types.js';
