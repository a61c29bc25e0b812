/**
 * dist/graph.json loaded for querying: the document plus what every query needs and no query
 * changes (node lookup, the typed transition operator, average field lengths). Built once per
 * process; the postings stay as parsed and are read per query term.
 *
 * The file is read through util/confined-read (size-capped, inside the dist) and its structure is
 * checked at load, cheaply (one pass over nodes, edges and the lexicon's arrays, not a schema
 * validation): everything a query indexes by or divides by must be there and be finite, so that a
 * damaged or hand-edited index fails here with an IndexError naming the problem instead of
 * crashing, looping or answering nonsense later. Postings are checked per term when first decoded
 * (rank.ts), since a query reads only a few of them.
 */
import path from 'node:path';
import { EDGE_TYPES, FIELDS, GRAPH_SCHEMA_VERSION, type EdgeType, type GraphDocument, type ParentNode } from '../graph/types.js';
import { DistReadError, MAX_INDEX_BYTES, readDistFile } from '../util/confined-read.js';

export class IndexError extends Error {}

/** One row of the transition operator: where a node's mass goes, and along which relation. */
export interface Transition {
  readonly to: number;
  readonly p: number;
  readonly type: EdgeType;
  readonly reverse: boolean;
}

export interface GraphIndex {
  readonly dist: string;
  readonly doc: GraphDocument;
  readonly parentOfDoc: readonly ParentNode[];
  readonly avgLength: readonly number[];
  /** Row-stochastic: transitions[u] sums to 1 (a node without edges keeps its mass: a self-loop). */
  readonly transitions: readonly (readonly Transition[])[];
  /** The same operator by target: incoming[v] lists (source u, probability) for T[u→v]. */
  readonly incoming: readonly (readonly { readonly from: number; readonly t: Transition }[])[];
  readonly nodeIndex: ReadonlyMap<string, number>;
}

/**
 * PPR iterations a graph.json may ask for. The build writes 50; each costs a pass over every edge,
 * so an edited index asking for billions would hang every query.
 */
export const MAX_PPR_ITERATIONS = 1000;

export function loadGraphIndex(dist: string): GraphIndex {
  const file = path.join(dist, 'graph.json');
  let text: string;
  try {
    text = readDistFile(dist, 'graph.json', { maxBytes: MAX_INDEX_BYTES }).toString('utf8');
  } catch (err) {
    if (err instanceof DistReadError) {
      throw new IndexError(err.problem === 'missing' ? `${dist} has no graph.json: build the library first (skillc build <library> -o ${dist})` : err.message);
    }
    throw new IndexError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let doc: GraphDocument;
  try {
    doc = JSON.parse(text) as GraphDocument;
  } catch (err) {
    throw new IndexError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  // A full schema check costs more than the query; the version and shape are what can differ.
  if (doc?.schemaVersion !== GRAPH_SCHEMA_VERSION || !Array.isArray(doc.nodes) || !Array.isArray(doc.edges) || !doc.lexicon || doc.lexicon.lengths?.length !== FIELDS.length) {
    throw new IndexError(`${file} is not a graph index of schema version ${GRAPH_SCHEMA_VERSION}; rebuild the library with this skillc`);
  }
  checkStructure(file, doc);
  return indexOf(dist, doc);
}

/** The cheap structural checks described above; the first problem found is an IndexError. */
function checkStructure(file: string, doc: GraphDocument): void {
  const fail = (what: string): never => {
    throw new IndexError(`${file} ${what}; rebuild the library with this skillc`);
  };
  const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  const isStringList = (x: unknown): boolean => Array.isArray(x) && x.every((v) => typeof v === 'string');
  const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

  // Parameters: every number the ranking reads, within the range the schema gives it.
  const P = doc.parameters as unknown;
  if (!isRecord(P) || !isRecord(P.bm25) || !isRecord(P.bm25.fieldWeights) || !isRecord(P.seeds) || !isRecord(P.ppr) || !isRecord(P.ppr.relationWeights) || !isRecord(P.ppr.reverseWeights) || !isRecord(P.rerank)) {
    return fail('has no complete retrieval parameters');
  }
  const numbers: [string, unknown, number, number][] = [
    ['bm25.k1', P.bm25.k1, 0, Infinity],
    ['bm25.b', P.bm25.b, 0, 1],
    ['bm25.k3', P.bm25.k3, 0, Infinity],
    ...FIELDS.map((f): [string, unknown, number, number] => [`bm25.fieldWeights.${f}`, (P.bm25 as { fieldWeights: Record<string, unknown> }).fieldWeights[f], 0, Infinity]),
    ['seeds.eta', P.seeds.eta, 0, 1],
    ['seeds.count', P.seeds.count, 1, Infinity],
    ['seeds.minRatio', P.seeds.minRatio, 0, 1],
    ['ppr.restart', P.ppr.restart, 0, 1],
    ['ppr.iterations', P.ppr.iterations, 1, MAX_PPR_ITERATIONS],
    ['ppr.tolerance', P.ppr.tolerance, 0, Infinity],
    ...EDGE_TYPES.map((t): [string, unknown, number, number] => [`ppr.relationWeights.${t}`, (P.ppr as { relationWeights: Record<string, unknown> }).relationWeights[t], 0, Infinity]),
    ...EDGE_TYPES.map((t): [string, unknown, number, number] => [`ppr.reverseWeights.${t}`, (P.ppr as { reverseWeights: Record<string, unknown> }).reverseWeights[t], 0, Infinity]),
    ['rerank.mu', P.rerank.mu, 0, Infinity],
    ['rerank.minGraphRatio', P.rerank.minGraphRatio, 0, 1],
    ['minCoverage', P.minCoverage, 0, 1],
  ];
  for (const [name, value, min, max] of numbers) {
    if (!finite(value) || value < min || value > max) fail(`has parameter ${name} = ${String(value)}, outside ${min}..${max}`);
  }
  if (!Number.isInteger(P.seeds.count) || !Number.isInteger(P.ppr.iterations)) fail('has a non-integer seed count or PPR iteration count');

  const ids = new Set<string>();
  for (const [i, node] of (doc.nodes as readonly unknown[]).entries()) {
    if (!isRecord(node) || typeof node.id !== 'string') return fail(`has node ${i} without a string id`);
    if (ids.has(node.id)) fail(`has two nodes with id ${node.id}`);
    ids.add(node.id);
    if (node.kind === 'contract') continue;
    if (node.kind !== 'parent') fail(`has node ${node.id} of unknown kind ${String(node.kind)}`);
    for (const key of ['path', 'name', 'description', 'bundle', 'source'] as const) {
      if (typeof node[key] !== 'string') fail(`has skill node ${node.id} without a string ${key}`);
    }
    // Answers read these lists (plans the contracts a step invokes, hits the flags).
    for (const key of ['invokes', 'inputs', 'outputs'] as const) {
      if (!isStringList(node[key])) fail(`has skill node ${node.id} whose ${key} is not a list of strings`);
    }
    if (node.flagged !== undefined && !isStringList(node.flagged)) fail(`has skill node ${node.id} whose flagged is not a list of strings`);
    if (!Number.isSafeInteger(node.tokens) || (node.tokens as number) < 0) fail(`has skill node ${node.id} whose token count is not a whole number ≥ 0`);
  }
  for (const [i, edge] of (doc.edges as readonly unknown[]).entries()) {
    if (!isRecord(edge)) return fail(`has edge ${i} that is not an object`);
    for (const end of ['from', 'to'] as const) {
      if (typeof edge[end] !== 'string' || !ids.has(edge[end])) fail(`has edge ${i} (${String(edge.type)}) whose ${end === 'from' ? 'source' : 'target'} ${String(edge[end])} is not a node of the graph`);
    }
    if (!EDGE_TYPES.includes(edge.type as EdgeType)) fail(`has edge ${i} of unknown type ${String(edge.type)}`);
    if (!finite(edge.weight) || edge.weight < 0) fail(`has edge ${i} (${String(edge.from)} → ${String(edge.to)}) with weight ${String(edge.weight)}, not a finite number ≥ 0`);
  }

  const { docs, lengths, norms, postings } = doc.lexicon as { docs: unknown; lengths: unknown[]; norms: unknown; postings: unknown };
  if (!Array.isArray(docs) || !Array.isArray(norms) || !isRecord(postings)) return fail('has an incomplete lexicon (docs, norms or postings missing)');
  for (const [d, node] of docs.entries()) {
    if (!Number.isInteger(node) || node < 0 || node >= doc.nodes.length || doc.nodes[node as number]!.kind !== 'parent') fail(`has lexicon document ${d} naming node ${String(node)}, which is not a skill node`);
  }
  if (norms.length !== docs.length || !norms.every(finite)) fail(`has ${norms.length} lexicon norms for ${docs.length} documents, or a norm that is not a finite number`);
  for (const [f, ls] of lengths.entries()) {
    if (!Array.isArray(ls) || ls.length !== docs.length || !ls.every((l) => finite(l) && l >= 0)) fail(`has field lengths for ${FIELDS[f]} that are not ${docs.length} finite numbers ≥ 0`);
  }
}

export function indexOf(dist: string, doc: GraphDocument): GraphIndex {
  const nodeIndex = new Map(doc.nodes.map((n, i) => [n.id, i]));
  const parentOfDoc = doc.lexicon.docs.map((node) => doc.nodes[node] as ParentNode);
  const avgLength = doc.lexicon.lengths.map((ls) => (ls.length === 0 ? 0 : ls.reduce((a, b) => a + b, 0) / ls.length));
  const transitions = transitionOperator(doc, nodeIndex);
  const incoming: { from: number; t: Transition }[][] = doc.nodes.map(() => []);
  transitions.forEach((row, u) => row.forEach((t) => incoming[t.to]!.push({ from: u, t })));
  return { dist, doc, parentOfDoc, avgLength, transitions, incoming, nodeIndex };
}

/**
 * T = RowNorm(Σ_r λ_r (T_r→ + γ_r T_r←)) (GoS eq. 3): per relation, a node's forward edges are
 * normalised by their total weight, and so are its reverse (incoming) edges; relation weights λ
 * and reverse weights γ come from the index's parameters.
 */
function transitionOperator(doc: GraphDocument, nodeIndex: ReadonlyMap<string, number>): Transition[][] {
  const n = doc.nodes.length;
  const { relationWeights, reverseWeights } = doc.parameters.ppr;
  // Per node and relation: total forward and reverse weight.
  const outTotal = EDGE_TYPES.map(() => new Float64Array(n));
  const inTotal = EDGE_TYPES.map(() => new Float64Array(n));
  // Ends are known nodes (checkStructure); an edge of weight 0 carries nothing, and a node whose
  // edges of a relation all weighed 0 would otherwise divide by a zero total.
  const edges = doc.edges.filter((e) => e.weight > 0).map((e) => ({ from: nodeIndex.get(e.from)!, to: nodeIndex.get(e.to)!, r: EDGE_TYPES.indexOf(e.type), w: e.weight, type: e.type }));
  for (const e of edges) {
    outTotal[e.r]![e.from]! += e.w;
    inTotal[e.r]![e.to]! += e.w;
  }
  const rows: Transition[][] = Array.from({ length: n }, () => []);
  for (const e of edges) {
    const lambda = relationWeights[e.type];
    rows[e.from]!.push({ to: e.to, p: (lambda * e.w) / outTotal[e.r]![e.from]!, type: e.type, reverse: false });
    const gamma = reverseWeights[e.type];
    if (gamma > 0) rows[e.to]!.push({ to: e.from, p: (lambda * gamma * e.w) / inTotal[e.r]![e.to]!, type: e.type, reverse: true });
  }
  return rows.map((row, u) => {
    const total = row.reduce((a, t) => a + t.p, 0);
    if (row.length === 0 || total <= 0) return [{ to: u, p: 1, type: 'sem' as const, reverse: false }];
    return row.map((t) => ({ ...t, p: t.p / total }));
  });
}
