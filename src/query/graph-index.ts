/**
 * dist/graph.json loaded for querying: the document plus what every query needs and no query
 * changes (node lookup, the typed transition operator, average field lengths). Built once per
 * process; the postings stay as parsed and are read per query term.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EDGE_TYPES, FIELDS, GRAPH_SCHEMA_VERSION, type EdgeType, type GraphDocument, type ParentNode } from '../graph/types.js';

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

export function loadGraphIndex(dist: string): GraphIndex {
  const file = path.join(dist, 'graph.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new IndexError(code === 'ENOENT' ? `${dist} has no graph.json: build the library first (skillc build <library> -o ${dist})` : `cannot read ${file}: ${(err as Error).message}`);
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
  return indexOf(dist, doc);
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
  const edges = doc.edges.map((e) => ({ from: nodeIndex.get(e.from)!, to: nodeIndex.get(e.to)!, r: EDGE_TYPES.indexOf(e.type), w: e.weight, type: e.type }));
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
