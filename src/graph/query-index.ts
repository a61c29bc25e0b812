/**
 * The query index (dist/index/): graph.json encoded for a query's cold start. graph.json is the
 * complete, readable graph (7.6 MB on the corpora); a query that parsed all of it spent most of
 * its time decoding, parsing and collecting text it never reads (the postings of every term, the
 * headings and edge evidence of every node). The same data here is split by when a query needs it:
 *
 * - `core.json`: what every query reads (parameters, node ids, field lengths and norms, the edges
 *   as parallel arrays with the evidence a plan cites, and a sparse term directory);
 * - `postings.txt`: one line per term, `term<TAB>doc field tf …`, sorted by term; a query reads the
 *   block of lines holding each of its terms, found from the directory (every TERMS_PER_BLOCK-th term
 *   and the byte offset where its block starts);
 * - `nodes.jsonl`: one node record per line, as in graph.json; a query reads the records of its
 *   hits by byte offset.
 *
 * Both files open with a line naming the index (core.json's `id`, a hash of their content), and a
 * query reads them through descriptors opened together with core.json's: a build that replaces
 * the dist meanwhile is either not seen at all or seen as a mismatch, never half-read.
 *
 * Both are written from one GraphDocument by emit, so they hold the same graph (a test compares
 * every answer of one with the other). Terms are ASCII word characters (text/tokens.ts), so a
 * line never holds a tab or a newline of its own.
 */
import { EDGE_TYPES, type EdgeType, type GraphDocument, type RetrievalParameters } from './types.js';
import { createHash } from 'node:crypto';
import { sha256 } from '../util/hash.js';
import { compareCodeUnits, stableStringify } from '../util/stable-json.js';

export const QUERY_INDEX_VERSION = 2;
export const QUERY_INDEX_DIR = 'index';
export const CORE_FILE = `${QUERY_INDEX_DIR}/core.json`;
export const NODES_FILE = `${QUERY_INDEX_DIR}/nodes.jsonl`;
export const POSTINGS_FILE = `${QUERY_INDEX_DIR}/postings.txt`;
/** Dense vectors of the lexicon's documents (`--embeddings`): float32, little-endian, one row per document. */
export const EMBEDDINGS_FILE = `${QUERY_INDEX_DIR}/embeddings.f32`;
/** The most bytes EMBEDDINGS_FILE may hold: the build gives none rather than a larger one, and a query refuses one. */
export const MAX_EMBEDDINGS_BYTES = 1 << 30;
/**
 * Edge types whose evidence a query cites: a plan says why one step comes after another ("outputs
 * csv"). The similarity behind a sem edge is its weight, and the rest are not cited, so their detail
 * stays in graph.json.
 */
export const CITED: readonly EdgeType[] = ['dep', 'wf'];

/** Terms per block of postings.txt: the directory names the first of each. */
export const TERMS_PER_BLOCK = 32;

export interface QueryIndexCore {
  readonly schemaVersion: number;
  /** Names this index: nodes.jsonl and postings.txt open with the line indexHeader(id). */
  readonly id: string;
  readonly tool: { readonly name: string; readonly version: string };
  readonly tokenizer: string;
  readonly parameters: RetrievalParameters;
  /** Node ids in graph.json's order; node i's record is bytes records[i]..records[i+1] of nodes.jsonl. */
  readonly nodes: readonly string[];
  readonly records: readonly number[];
  /** The lexicon as in graph.json, without its postings. */
  readonly docs: readonly number[];
  readonly lengths: readonly (readonly number[])[];
  readonly norms: readonly number[];
  /** Edge i goes from node from[i] to node to[i], of type EDGE_TYPES[type[i]]; detail is its first evidence's detail for the CITED types, else ''. */
  readonly edges: {
    readonly from: readonly number[];
    readonly to: readonly number[];
    readonly type: readonly number[];
    readonly weight: readonly number[];
    readonly detail: readonly string[];
  };
  /** Block b of postings.txt holds the terms from first[b] (inclusive) to first[b + 1]; bytes offsets[b]..offsets[b + 1]. */
  readonly terms: { readonly first: readonly string[]; readonly offsets: readonly number[] };
  /** With `--embeddings`: the model, the vectors' length and the SHA-256 of EMBEDDINGS_FILE (row d is document d's vector). */
  readonly embeddings?: DenseIndex;
}

export interface DenseIndex {
  readonly model: string;
  readonly dimensions: number;
  readonly sha256: string;
}

/** The documents' vectors for the query index: row d is document d's, L2-normalised. */
export interface DocumentVectors {
  readonly model: string;
  readonly dimensions: number;
  readonly vectors: Float32Array;
}

export interface QueryIndexFiles {
  readonly core: QueryIndexCore;
  readonly nodes: string;
  readonly postings: string;
  /** EMBEDDINGS_FILE's bytes, with vectors given. */
  readonly embeddings?: Uint8Array;
}

/** Vectors as EMBEDDINGS_FILE holds them: float32, little-endian. */
function vectorBytes(vectors: Float32Array): Uint8Array {
  const out = new Uint8Array(vectors.length * 4);
  const view = new DataView(out.buffer);
  vectors.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return out;
}

/**
 * The first line of nodes.jsonl and of postings.txt: the id of the index they belong to, so that
 * files of two builds (a query that ran while a build replaced the dist) are never read together.
 */
export function indexHeader(id: string): string {
  return `{"index":"${id}"}\n`;
}

/** Bytes of indexHeader for any id (16 hex digits): where the first record and the first block start. */
export const HEADER_BYTES = indexHeader('0'.repeat(16)).length;

export function encodeQueryIndex(doc: GraphDocument, dense?: DocumentVectors | null): QueryIndexFiles {
  const nodeIndex = new Map(doc.nodes.map((n, i) => [n.id, i]));
  const records: number[] = [HEADER_BYTES];
  const nodeLines: string[] = [];
  let at = HEADER_BYTES;
  for (const node of doc.nodes) {
    const line = stableStringify(node, 0); // one line, newline-terminated
    nodeLines.push(line);
    at += Buffer.byteLength(line, 'utf8');
    records.push(at);
  }

  const first: string[] = [];
  const offsets: number[] = [];
  const postingLines: string[] = [];
  let bytes = HEADER_BYTES;
  // graph.json's postings are keyed in sorted order; sorting again makes the order this file's own.
  const terms = Object.keys(doc.lexicon.postings).sort(compareCodeUnits);
  terms.forEach((term, i) => {
    if (i % TERMS_PER_BLOCK === 0) {
      first.push(term);
      offsets.push(bytes);
    }
    const line = `${term}\t${doc.lexicon.postings[term]!}\n`;
    postingLines.push(line);
    bytes += Buffer.byteLength(line, 'utf8');
  });
  offsets.push(bytes);

  const edgeTypes = doc.edges.map((e) => EDGE_TYPES.indexOf(e.type as EdgeType));
  const nodes = nodeLines.join('');
  const postings = postingLines.join('');
  const id = createHash('sha256').update(nodes).update('\0').update(postings).digest('hex').slice(0, 16);
  const core: QueryIndexCore = {
    schemaVersion: QUERY_INDEX_VERSION,
    id,
    tool: doc.tool,
    tokenizer: doc.tokenizer,
    parameters: doc.parameters,
    nodes: doc.nodes.map((n) => n.id),
    records,
    docs: doc.lexicon.docs,
    lengths: doc.lexicon.lengths,
    norms: doc.lexicon.norms,
    edges: {
      from: doc.edges.map((e) => nodeIndex.get(e.from)!),
      to: doc.edges.map((e) => nodeIndex.get(e.to)!),
      type: edgeTypes,
      weight: doc.edges.map((e) => e.weight),
      detail: doc.edges.map((e) => (CITED.includes(e.type) ? (e.evidence[0]?.detail ?? '') : '')),
    },
    terms: { first, offsets },
  };
  if (!dense || dense.dimensions <= 0 || dense.vectors.length !== doc.lexicon.docs.length * dense.dimensions) return { core, nodes: indexHeader(id) + nodes, postings: indexHeader(id) + postings };
  const embeddings = vectorBytes(dense.vectors);
  const meta: DenseIndex = { model: dense.model, dimensions: dense.dimensions, sha256: sha256(embeddings) };
  return { core: { ...core, embeddings: meta }, nodes: indexHeader(id) + nodes, postings: indexHeader(id) + postings, embeddings };
}
