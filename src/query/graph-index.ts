/**
 * The graph index loaded for querying, from the dist's query index (dist/index/, graph/query-index.ts):
 * what every query needs and no query changes (node ids, field lengths, the typed transition
 * operator, average field lengths) is read at load from core.json; a term's postings and a node's
 * record are read from their files, by byte range, the first time a query asks for them, and kept.
 * A cold query so reads about a tenth of the bytes graph.json holds.
 *
 * Every file is read through util/confined-read (size-capped, inside the dist) and checked, cheaply:
 * core.json at load (one pass over its arrays, not a schema validation), a record or a block of
 * postings when it is read. Everything a query indexes by or divides by must be there and be
 * finite, so that a damaged or hand-edited index fails with an IndexError naming the problem
 * instead of crashing, looping or answering nonsense later.
 *
 * `indexOf(dist, doc)` makes the same index from a GraphDocument held in memory (tests and benches
 * that vary a graph), through the same checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EDGE_TYPES, FIELDS, type EdgeType, type GraphDocument, type GraphNode, type ParentNode, type RetrievalParameters } from '../graph/types.js';
import { sha256 } from '../util/hash.js';
import { CORE_FILE, EMBEDDINGS_FILE, MAX_EMBEDDINGS_BYTES, encodeQueryIndex, HEADER_BYTES, indexHeader, NODES_FILE, POSTINGS_FILE, QUERY_INDEX_VERSION, type DenseIndex, type QueryIndexCore } from '../graph/query-index.js';
import { decodePostings } from '../graph/lexicon.js';
import { DistReadError, MAX_INDEX_BYTES, openDistFile, readDistFile, type DistFile } from '../util/confined-read.js';
import { compareCodeUnits } from '../util/stable-json.js';

export class IndexError extends Error {}

/**
 * The transition operator T as compressed rows: node u's mass goes to to[j] with probability p[j]
 * for j in start[u]..start[u + 1], along relation EDGE_TYPES[type[j]], backwards when reverse[j].
 * Rows sum to 1 (a node without edges keeps its mass: a self-loop). inStart/inRow list, per target
 * v, the transitions into it (as indexes j, and their source row u in inFrom).
 */
export interface TransitionOperator {
  readonly start: Int32Array;
  readonly to: Int32Array;
  readonly p: Float64Array;
  readonly type: Uint8Array;
  readonly reverse: Uint8Array;
  readonly inStart: Int32Array;
  readonly inRow: Int32Array;
  readonly inFrom: Int32Array;
}

/** An edge as a plan reads it: its ends by node id, and its first evidence's detail. */
export interface QueryEdge {
  readonly from: string;
  readonly to: string;
  readonly type: EdgeType;
  readonly weight: number;
  readonly detail: string;
}

export interface GraphIndex {
  readonly dist: string;
  readonly tokenizer: string;
  readonly parameters: RetrievalParameters;
  /** Node ids, in graph.json's order. */
  readonly nodeIds: readonly string[];
  readonly nodeIndex: ReadonlyMap<string, number>;
  /** The lexicon's documents (parents), as node indexes, and their field lengths and body norms. */
  readonly docs: readonly number[];
  readonly lengths: readonly (readonly number[])[];
  readonly norms: readonly number[];
  readonly avgLength: readonly number[];
  readonly operator: TransitionOperator;
  readonly edges: readonly QueryEdge[];
  /** Node i's record (read when first asked for). */
  node(i: number): GraphNode;
  /** Document d's skill node. */
  parent(d: number): ParentNode;
  /** A term's (document, field, tf) triples; empty when no skill holds the term. */
  postings(term: string): Int32Array;
  /** Every node's record (a server's skill list): reads them all. */
  allNodes(): readonly GraphNode[];
  /**
   * Reads every record and every term's postings now, each file whole, and closes the files (a
   * long-lived server): later queries read no index file.
   */
  preload(): void;
  /** Closes the index's files (a retriever kept without preload holds two descriptors until then). */
  close(): void;
  /** The documents' dense vectors (`build --embeddings`): their model and length, or undefined. */
  readonly embeddings: DenseIndex | undefined;
  /** Row d is document d's vector (L2-normalised), read and checked against core.json on first use. */
  denseVectors(): Float32Array;
}

/**
 * PPR iterations an index may ask for. The build writes 50; each costs a pass over every edge,
 * so an edited index asking for billions would hang every query.
 */
export const MAX_PPR_ITERATIONS = 1000;
/** Feedback documents, terms per query and distinctive terms per skill an index may ask for: each is read per query. */
export const MAX_FEEDBACK = 100;

/** Where an index's records and postings come from: its files, or a document in memory. */
interface IndexSource {
  /** The files a problem with a record or with postings is reported against. */
  readonly nodesName: string;
  readonly postingsName: string;
  record(i: number): unknown;
  /** The encoded postings of `term`, undefined when the index holds no such term. */
  encodedPostings(term: string): string | undefined;
  allRecords(): unknown[];
  /** Every term of the index with its encoded postings. */
  allPostings(): Iterable<[string, string]>;
  /** Releases the files (reads after it fail). */
  close(): void;
}

/** A dist read that failed, as the IndexError a query reports (the read's message names the file). */
function indexReadError(err: unknown, missing?: string): never {
  if (err instanceof DistReadError) throw new IndexError(missing !== undefined && err.problem === 'missing' ? missing : `${err.message}; rebuild the library with this skillc`);
  throw err;
}

export function loadGraphIndex(dist: string): GraphIndex {
  const coreName = path.join(dist, CORE_FILE);
  // The three files are opened together and read through these descriptors only, so that a build
  // replacing the dist meanwhile cannot be half-read (its files would carry another id).
  const files: DistFile[] = [];
  const open = (rel: string, missing: string): DistFile => {
    try {
      const f = openDistFile(dist, rel, { maxBytes: MAX_INDEX_BYTES });
      files.push(f);
      return f;
    } catch (err) {
      for (const f of files) f.close();
      if (err instanceof DistReadError) indexReadError(err, missing);
      throw new IndexError(`cannot read ${path.join(dist, rel)}: ${(err as Error).message}`);
    }
  };
  // Without a manifest it is no dist at all (a library, a file, an empty folder): say which, and
  // never suggest building into a folder that holds something else.
  const coreFile = open(CORE_FILE, fs.existsSync(path.join(dist, 'manifest.json')) ? `${dist} has no ${CORE_FILE}: rebuild the library with this skillc` : noDistMessage(dist));
  const nodesFile = open(NODES_FILE, `${dist} has no ${NODES_FILE}: rebuild the library with this skillc`);
  const postingsFile = open(POSTINGS_FILE, `${dist} has no ${POSTINGS_FILE}: rebuild the library with this skillc`);
  const closeAll = () => files.forEach((f) => f.close());
  try {
    let core: QueryIndexCore;
    try {
      core = JSON.parse(coreFile.read(0, coreFile.size).toString('utf8')) as QueryIndexCore;
    } catch (err) {
      if (err instanceof DistReadError) indexReadError(err);
      throw new IndexError(`${coreName} is not valid JSON: ${(err as Error).message}`);
    }
    coreFile.close();
    checkCore(coreName, core);
    return fromCore(dist, core, fileSource(dist, core, nodesFile, postingsFile, closeAll));
  } catch (err) {
    closeAll();
    throw err;
  }
}

/** graph.json whole, for tools that vary a graph and index it with indexOf (benches, tests); unchecked. */
export function readGraphDocument(dist: string): GraphDocument {
  try {
    return JSON.parse(readDistFile(dist, 'graph.json', { maxBytes: MAX_INDEX_BYTES }).toString('utf8')) as GraphDocument;
  } catch (err) {
    throw new IndexError(`cannot read ${path.join(dist, 'graph.json')}: ${(err as Error).message}`);
  }
}

/** The index of a graph held in memory, as the build would write it. */
export function indexOf(dist: string, doc: GraphDocument): GraphIndex {
  const { core } = encodeQueryIndex(doc);
  const name = `${path.join(dist, 'graph.json')} (in memory)`;
  checkCore(name, core);
  const source: IndexSource = {
    nodesName: name,
    postingsName: name,
    record: (i) => doc.nodes[i],
    encodedPostings: (term) => (Object.hasOwn(doc.lexicon.postings, term) ? doc.lexicon.postings[term] : undefined),
    allRecords: () => [...doc.nodes],
    allPostings: () => Object.entries(doc.lexicon.postings),
    close: () => {},
  };
  return fromCore(dist, core, source);
}

/** The index over a core that checkCore passed. */
function fromCore(dist: string, core: QueryIndexCore, source: IndexSource): GraphIndex {
  const nodeIndex = new Map(core.nodes.map((id, i) => [id, i]));
  const avgLength = core.lengths.map((ls) => (ls.length === 0 ? 0 : ls.reduce((a, b) => a + b, 0) / ls.length));
  const operator = transitionOperator(core);
  let edges: QueryEdge[] | undefined;
  const records = new Map<number, GraphNode>();
  const postings = new Map<string, Int32Array>();
  const nDocs = core.docs.length;
  let vectors: Float32Array | undefined;

  const decode = (term: string, encoded: unknown): Int32Array => {
    const list = typeof encoded === 'string' ? decodePostings(encoded) : undefined;
    if (!list || !wellFormed(list, nDocs)) throw new IndexError(`${source.postingsName} has malformed postings for the term '${term}'; rebuild the library with this skillc`);
    postings.set(term, list);
    return list;
  };
  const node = (i: number): GraphNode => {
    let n = records.get(i);
    if (!n) records.set(i, (n = checkedNode(source.nodesName, source.record(i), core.nodes[i]!)));
    return n;
  };
  /** Set by preload: every record and every term's postings are in memory, and the files closed. */
  let complete = false;
  const allNodes = (): readonly GraphNode[] => {
    if (records.size === core.nodes.length) return core.nodes.map((_, i) => records.get(i)!);
    const all = source.allRecords();
    if (all.length !== core.nodes.length) throw new IndexError(`${source.nodesName} holds ${all.length} records for ${core.nodes.length} nodes; rebuild the library with this skillc`);
    all.forEach((r, i) => records.has(i) || records.set(i, checkedNode(source.nodesName, r, core.nodes[i]!)));
    return core.nodes.map((_, i) => records.get(i)!);
  };
  return {
    dist,
    tokenizer: core.tokenizer,
    parameters: core.parameters,
    nodeIds: core.nodes,
    nodeIndex,
    docs: core.docs,
    lengths: core.lengths,
    norms: core.norms,
    avgLength,
    operator,
    // Built on first use: a plain query never reads an edge's ends by id.
    get edges() {
      return (edges ??= core.edges.from.map((from, i) => ({
        from: core.nodes[from]!,
        to: core.nodes[core.edges.to[i]!]!,
        type: EDGE_TYPES[core.edges.type[i]!]!,
        weight: core.edges.weight[i]!,
        detail: core.edges.detail[i]!,
      })));
    },
    node,
    parent(d) {
      const n = node(core.docs[d]!);
      if (n.kind !== 'parent') throw new IndexError(`${source.nodesName} has lexicon document ${d} naming node ${n.id}, which is not a skill node; rebuild the library with this skillc`);
      return n;
    },
    // Only terms of the lexicon are kept, so the cache never outgrows the index whatever the queries.
    postings(term) {
      let list = postings.get(term);
      if (list) return list;
      if (complete) return NO_POSTINGS;
      const encoded = source.encodedPostings(term);
      return encoded === undefined ? NO_POSTINGS : decode(term, encoded);
    },
    allNodes,
    preload() {
      if (complete) return;
      allNodes();
      for (const [term, encoded] of source.allPostings()) if (!postings.has(term)) decode(term, encoded);
      complete = true;
      source.close();
    },
    close: () => source.close(),
    embeddings: core.embeddings,
    denseVectors: () => (vectors ??= readDenseVectors(dist, core)),
  };
}

/** EMBEDDINGS_FILE, checked against core.json: its size, and its SHA-256 (a file of another build is refused). */
function readDenseVectors(dist: string, core: QueryIndexCore): Float32Array {
  const meta = core.embeddings;
  if (!meta) throw new IndexError(`${dist} has no embeddings: build the library with --embeddings openai`);
  let bytes: Buffer;
  try {
    bytes = readDistFile(dist, EMBEDDINGS_FILE, { maxBytes: MAX_EMBEDDINGS_BYTES });
  } catch (err) {
    if (err instanceof DistReadError) indexReadError(err, `${dist} has no ${EMBEDDINGS_FILE}, which its ${CORE_FILE} names: rebuild the library`);
    throw err;
  }
  const fail = (what: string) => new IndexError(`${path.join(dist, EMBEDDINGS_FILE)} ${what}; rebuild the library with this skillc`);
  if (bytes.length !== core.docs.length * meta.dimensions * 4) throw fail(`holds ${bytes.length} bytes, not ${core.docs.length} vectors of ${meta.dimensions} dimensions`);
  if (sha256(bytes) !== meta.sha256) throw fail(`is not the one ${CORE_FILE} names (another build's?)`);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) {
    const x = bytes.readFloatLE(i * 4);
    if (!Number.isFinite(x)) throw fail(`holds a value that is not a number at ${i}`);
    out[i] = x;
  }
  return out;
}

const NO_POSTINGS = new Int32Array(0);

/**
 * Records and postings read from index/nodes.jsonl and index/postings.txt by byte range, through
 * descriptors opened with core.json. Each file must open with the index's id and have the size
 * core.json gives it; a record must be one line holding its node; a block must start with the
 * term the directory names, end at a line's end, and be followed by the next block's first term.
 */
function fileSource(dist: string, core: QueryIndexCore, nodesFile: DistFile, postingsFile: DistFile, closeAll: () => void): IndexSource {
  const nodesName = path.join(dist, NODES_FILE);
  const postingsName = path.join(dist, POSTINGS_FILE);
  const fail = (what: string): never => {
    throw new IndexError(`${what}; rebuild the library with this skillc`);
  };
  const read = (file: DistFile, from: number, to: number): Buffer => {
    try {
      return file.read(from, to - from);
    } catch (err) {
      return indexReadError(err);
    }
  };
  const { first, offsets } = core.terms;
  for (const [file, name, end] of [[nodesFile, nodesName, core.records.at(-1)!], [postingsFile, postingsName, offsets.at(-1)!]] as const) {
    if (file.size < HEADER_BYTES || read(file, 0, HEADER_BYTES).toString('utf8') !== indexHeader(core.id)) fail(`${name} does not belong to the index ${core.id} of ${path.join(dist, CORE_FILE)} (a file of another build?)`);
    if (file.size !== end) fail(`${name} has ${file.size} bytes where ${path.join(dist, CORE_FILE)} expects ${end}`);
  }
  const parseRecord = (bytes: Buffer, i: number): unknown => {
    const line = bytes.toString('utf8');
    try {
      if (!line.endsWith('\n') || line.indexOf('\n') !== line.length - 1) throw new Error('not one line');
      return JSON.parse(line);
    } catch {
      return fail(`${nodesName} has a record for node ${i} (${core.nodes[i]}) that is not one line of JSON`);
    }
  };
  /** Block b of postings.txt, term → encoded postings. */
  const blocks = new Map<number, Map<string, string>>();
  const block = (b: number, whole?: Buffer): Map<string, string> => {
    let terms = blocks.get(b);
    if (terms) return terms;
    terms = new Map();
    const misplaced = () => fail(`${postingsName} does not hold the terms the directory of ${path.join(dist, CORE_FILE)} places in block ${b}`);
    const next = first[b + 1];
    // The block, and the start of the next one: a boundary moved by whole lines is caught here.
    const end = offsets[b + 1]! + (next === undefined ? 0 : next.length + 1);
    const bytes = whole ? whole.subarray(offsets[b]!, end) : read(postingsFile, offsets[b]!, end);
    const text = bytes.toString('utf8');
    const own = next === undefined ? text : text.slice(0, text.length - next.length - 1);
    if (next !== undefined && text.slice(own.length) !== `${next}\t`) misplaced();
    if (!own.endsWith('\n')) misplaced();
    let previous = '';
    for (const line of own.slice(0, -1).split('\n')) {
      const tab = line.indexOf('\t');
      const term = tab < 0 ? '' : line.slice(0, tab);
      if (tab <= 0 || (previous === '' ? term !== first[b] : compareCodeUnits(term, previous) <= 0) || (next !== undefined && compareCodeUnits(term, next) >= 0)) misplaced();
      terms.set(term, line.slice(tab + 1));
      previous = term;
    }
    blocks.set(b, terms);
    return terms;
  };
  return {
    nodesName,
    postingsName,
    record: (i) => parseRecord(read(nodesFile, core.records[i]!, core.records[i + 1]!), i),
    encodedPostings(term) {
      // The last block whose first term is at or before `term`.
      let lo = 0;
      let hi = first.length - 1;
      if (hi < 0 || compareCodeUnits(term, first[0]!) < 0) return undefined;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (compareCodeUnits(first[mid]!, term) <= 0) lo = mid;
        else hi = mid - 1;
      }
      return block(lo).get(term);
    },
    allRecords() {
      const whole = read(nodesFile, 0, nodesFile.size);
      return core.nodes.map((_, i) => parseRecord(whole.subarray(core.records[i]!, core.records[i + 1]!), i));
    },
    *allPostings() {
      const whole = read(postingsFile, 0, postingsFile.size);
      for (let b = 0; b < first.length; b++) yield* block(b, whole);
      // Decoded now; the encoded text is not needed again.
      blocks.clear();
    },
    close: closeAll,
  };
}

/** The cheap structural checks of core.json described above; the first problem found is an IndexError. */
function checkCore(file: string, core: QueryIndexCore): void {
  if (typeof core !== 'object' || core === null || core.schemaVersion !== QUERY_INDEX_VERSION) {
    throw new IndexError(`${file} is not a query index of schema version ${QUERY_INDEX_VERSION}; rebuild the library with this skillc`);
  }
  const fail = (what: string): never => {
    throw new IndexError(`${file} ${what}; rebuild the library with this skillc`);
  };
  const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  // Offsets start after the header line and rise strictly: every record and every block holds a line.
  const offsetsOk = (xs: unknown, count: number): boolean => Array.isArray(xs) && xs.length === count && xs.every((x, i) => Number.isSafeInteger(x) && (i === 0 ? x === HEADER_BYTES : x > xs[i - 1]));

  // Parameters: every number the ranking reads, within the range the schema gives it.
  const P = core.parameters as unknown;
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
    ['feedback.docs', isRecord(P.feedback) ? P.feedback.docs : undefined, 1, MAX_FEEDBACK],
    ['feedback.terms', isRecord(P.feedback) ? P.feedback.terms : undefined, 0, MAX_FEEDBACK],
    ['feedback.weight', isRecord(P.feedback) ? P.feedback.weight : undefined, 0, Infinity],
    ['feedback.maxCoverage', isRecord(P.feedback) ? P.feedback.maxCoverage : undefined, 0, 1],
  ];
  for (const [name, value, min, max] of numbers) {
    if (!finite(value) || value < min || value > max) fail(`has parameter ${name} = ${typeof value === 'number' ? `${value}, outside ${min}..${max}` : `${JSON.stringify(value) ?? String(value)}, not a number`}`);
  }
  if (!Number.isInteger(P.seeds.count) || !Number.isInteger(P.ppr.iterations)) fail('has a non-integer seed count or PPR iteration count');
  if (!Number.isInteger((P.feedback as { docs: unknown }).docs) || !Number.isInteger((P.feedback as { terms: unknown }).terms)) fail('has a non-integer feedback document or term count');
  if (typeof core.tokenizer !== 'string') fail('names no tokenizer');
  if (typeof core.id !== 'string' || !/^[0-9a-f]{16}$/.test(core.id)) fail('has no index id of 16 hex digits');

  if (!Array.isArray(core.nodes) || !core.nodes.every((id) => typeof id === 'string')) return fail('has node ids that are not a list of strings');
  const n = core.nodes.length;
  if (new Set(core.nodes).size !== n) fail('has two nodes with one id');
  if (!offsetsOk(core.records, n + 1)) fail(`has record offsets that are not ${n + 1} ascending whole numbers from ${HEADER_BYTES}`);

  const E = core.edges as unknown;
  if (!isRecord(E) || !['from', 'to', 'type', 'weight', 'detail'].every((k) => Array.isArray(E[k]))) return fail('has no edge arrays (from, to, type, weight, detail)');
  const { from, to, type, weight, detail } = core.edges;
  const m = from.length;
  if (to.length !== m || type.length !== m || weight.length !== m || detail.length !== m) fail('has edge arrays of different lengths');
  const isNode = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 0 && (x as number) < n;
  for (let i = 0; i < m; i++) {
    const label = `${i} (${EDGE_TYPES[type[i]!] ?? String(type[i])})`;
    if (!isNode(from[i])) fail(`has edge ${label} whose source ${String(from[i])} is not a node of the graph`);
    if (!isNode(to[i])) fail(`has edge ${label} whose target ${String(to[i])} is not a node of the graph`);
    if (!Number.isInteger(type[i]) || EDGE_TYPES[type[i]!] === undefined) fail(`has edge ${i} of unknown type ${String(type[i])}`);
    if (!finite(weight[i]) || weight[i]! < 0) fail(`has edge ${label} (${core.nodes[from[i]!]} → ${core.nodes[to[i]!]}) with weight ${String(weight[i])}, not a finite number ≥ 0`);
    if (typeof detail[i] !== 'string') fail(`has edge ${label} whose detail is not a string`);
  }

  const { docs, lengths, norms } = core;
  if (!Array.isArray(docs) || !Array.isArray(norms) || !Array.isArray(lengths) || lengths.length !== FIELDS.length) return fail('has an incomplete lexicon (docs, lengths or norms missing)');
  for (const [d, node] of docs.entries()) {
    if (!isNode(node) || !core.nodes[node]!.startsWith('skill:')) fail(`has lexicon document ${d} naming node ${String(node)}, which is not a skill node`);
  }
  if (norms.length !== docs.length || !norms.every(finite)) fail(`has ${norms.length} lexicon norms for ${docs.length} documents, or a norm that is not a finite number`);
  for (const [f, ls] of lengths.entries()) {
    if (!Array.isArray(ls) || ls.length !== docs.length || !ls.every((l) => finite(l) && l >= 0)) fail(`has field lengths for ${FIELDS[f]} that are not ${docs.length} finite numbers ≥ 0`);
  }

  const T = core.terms as unknown;
  if (!isRecord(T) || !Array.isArray(T.first) || !T.first.every((t, i, all) => typeof t === 'string' && (i === 0 || compareCodeUnits(all[i - 1] as string, t) < 0))) {
    return fail('has a term directory whose first terms are not strings in ascending order');
  }
  if (!offsetsOk(T.offsets, T.first.length + 1)) fail(`has term block offsets that are not ${T.first.length + 1} ascending whole numbers from ${HEADER_BYTES}`);

  const dense = core.embeddings as unknown;
  if (dense !== undefined && (!isRecord(dense) || typeof dense.model !== 'string' || !Number.isSafeInteger(dense.dimensions) || (dense.dimensions as number) < 1 || typeof dense.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(dense.sha256))) {
    fail('has embeddings without a model name, a whole number of dimensions and a SHA-256');
  }
}

/** A node record as the answers read it, or an IndexError naming what is wrong with it. */
function checkedNode(file: string, node: unknown, id: string): GraphNode {
  const fail = (what: string): never => {
    throw new IndexError(`${file} ${what}; rebuild the library with this skillc`);
  };
  const isStringList = (x: unknown): boolean => Array.isArray(x) && x.every((v) => typeof v === 'string');
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return fail(`has a record for node ${id} that is not an object`);
  const r = node as Record<string, unknown>;
  if (r.id !== id) fail(`has the record of ${String(r.id)} where node ${id} should be`);
  if (r.kind === 'contract') {
    if (typeof r.contract !== 'string') fail(`has contract node ${id} without a string contract file`);
    return node as GraphNode;
  }
  if (r.kind !== 'parent') fail(`has node ${id} of unknown kind ${String(r.kind)}`);
  for (const key of ['path', 'name', 'description', 'bundle', 'source'] as const) {
    if (typeof r[key] !== 'string') fail(`has skill node ${id} without a string ${key}`);
  }
  // Ties are broken by id as by path (rank.ts), which holds because a skill's id is its path.
  if (id !== `skill:${String(r.path)}`) fail(`has skill node ${id} whose path is ${String(r.path)}`);
  // Answers read these lists (plans the contracts a step invokes, hits the flags).
  for (const key of ['invokes', 'inputs', 'outputs'] as const) {
    if (!isStringList(r[key])) fail(`has skill node ${id} whose ${key} is not a list of strings`);
  }
  if (r.flagged !== undefined && !isStringList(r.flagged)) fail(`has skill node ${id} whose flagged is not a list of strings`);
  // Feedback adds these to a query: a term and a finite weight ≥ 0 each, a bounded number of them.
  const isTerm = (x: unknown): boolean => Array.isArray(x) && x.length === 2 && typeof x[0] === 'string' && typeof x[1] === 'number' && Number.isFinite(x[1]) && x[1] >= 0;
  if (!Array.isArray(r.terms) || r.terms.length > MAX_FEEDBACK || !r.terms.every(isTerm)) fail(`has skill node ${id} whose terms are not at most ${MAX_FEEDBACK} [term, weight ≥ 0] pairs`);
  if (!Number.isSafeInteger(r.tokens) || (r.tokens as number) < 0) fail(`has skill node ${id} whose token count is not a whole number ≥ 0`);
  return node as GraphNode;
}

/** (document, field, tf) triples, documents ascending and in range, fields known, tf ≥ 1. */
function wellFormed(list: Int32Array, nDocs: number): boolean {
  if (list.length % 3 !== 0) return false;
  for (let i = 0; i < list.length; i += 3) {
    const d = list[i]!;
    if (d < 0 || d >= nDocs || (i > 0 && d < list[i - 3]!) || list[i + 1]! < 0 || list[i + 1]! >= FIELDS.length || list[i + 2]! < 1) return false;
  }
  return true;
}

/**
 * T = RowNorm(Σ_r λ_r (T_r→ + γ_r T_r←)) (GoS eq. 3): per relation, a node's forward edges are
 * normalised by their total weight, and so are its reverse (incoming) edges; relation weights λ
 * and reverse weights γ come from the index's parameters.
 */
function transitionOperator(core: QueryIndexCore): TransitionOperator {
  const n = core.nodes.length;
  const { relationWeights, reverseWeights } = core.parameters.ppr;
  const E = core.edges;
  // Per node and relation: total forward and reverse weight. An edge of weight 0 carries nothing,
  // and a node whose edges of a relation all weighed 0 would otherwise divide by a zero total.
  const outTotal = EDGE_TYPES.map(() => new Float64Array(n));
  const inTotal = EDGE_TYPES.map(() => new Float64Array(n));
  for (let i = 0; i < E.from.length; i++) {
    if (!(E.weight[i]! > 0)) continue;
    outTotal[E.type[i]!]![E.from[i]!]! += E.weight[i]!;
    inTotal[E.type[i]!]![E.to[i]!]! += E.weight[i]!;
  }
  // Row u holds, in edge order, the forward entries of edges from u and the reverse entries of
  // edges into u (typed arrays filled in two passes: no object per entry).
  const live = (i: number) => E.weight[i]! > 0;
  const hasReverse = (i: number) => reverseWeights[EDGE_TYPES[E.type[i]!]!] > 0;
  const rowStart = new Int32Array(n + 1);
  for (let i = 0; i < E.from.length; i++) {
    if (!live(i)) continue;
    rowStart[E.from[i]! + 1]!++;
    if (hasReverse(i)) rowStart[E.to[i]! + 1]!++;
  }
  for (let u = 0; u < n; u++) rowStart[u + 1]! += rowStart[u]!;
  const raw = { to: new Int32Array(rowStart[n]!), p: new Float64Array(rowStart[n]!), type: new Uint8Array(rowStart[n]!), reverse: new Uint8Array(rowStart[n]!) };
  const put = Int32Array.from(rowStart);
  const place = (u: number, v: number, prob: number, r: number, back: number) => {
    const j = put[u]!++;
    raw.to[j] = v;
    raw.p[j] = prob;
    raw.type[j] = r;
    raw.reverse[j] = back;
  };
  for (let i = 0; i < E.from.length; i++) {
    if (!live(i)) continue;
    const w = E.weight[i]!;
    const r = E.type[i]!;
    const type = EDGE_TYPES[r]!;
    const u = E.from[i]!;
    const v = E.to[i]!;
    const lambda = relationWeights[type];
    place(u, v, (lambda * w) / outTotal[r]![u]!, r, 0);
    const gamma = reverseWeights[type];
    if (gamma > 0) place(v, u, (lambda * gamma * w) / inTotal[r]![v]!, r, 1);
  }
  // Rows normalised to 1; an empty row, or one whose relations all weigh 0, becomes a self-loop.
  const totals = new Float64Array(n);
  const selfLoop = new Uint8Array(n);
  const start = new Int32Array(n + 1);
  for (let u = 0; u < n; u++) {
    let total = 0;
    for (let j = rowStart[u]!; j < rowStart[u + 1]!; j++) total += raw.p[j]!;
    // Weights are finite, but products of huge ones are not (1e300 × 1e300): scores would be NaN.
    if (!Number.isFinite(total)) throw new IndexError(`the edge and relation weights of node ${core.nodes[u]} overflow (${total}); rebuild the library with this skillc`);
    totals[u] = total;
    selfLoop[u] = rowStart[u + 1]! === rowStart[u]! || total <= 0 ? 1 : 0;
    start[u + 1] = start[u]! + (selfLoop[u] ? 1 : rowStart[u + 1]! - rowStart[u]!);
  }
  const size = start[n]!;
  const to = new Int32Array(size);
  const p = new Float64Array(size);
  const type = new Uint8Array(size);
  const reverse = new Uint8Array(size);
  const SEM = EDGE_TYPES.indexOf('sem');
  for (let u = 0; u < n; u++) {
    const j0 = start[u]!;
    if (selfLoop[u]) {
      to[j0] = u;
      p[j0] = 1;
      type[j0] = SEM;
      continue;
    }
    for (let k = 0; k < start[u + 1]! - j0; k++) {
      const j = rowStart[u]! + k;
      to[j0 + k] = raw.to[j]!;
      p[j0 + k] = raw.p[j]! / totals[u]!;
      type[j0 + k] = raw.type[j]!;
      reverse[j0 + k] = raw.reverse[j]!;
    }
  }
  const inStart = new Int32Array(n + 1);
  for (let j = 0; j < size; j++) inStart[to[j]! + 1]!++;
  for (let v = 0; v < n; v++) inStart[v + 1]! += inStart[v]!;
  const fill = Int32Array.from(inStart);
  const inRow = new Int32Array(size);
  const inFrom = new Int32Array(size);
  for (let u = 0; u < n; u++) {
    for (let j = start[u]!; j < start[u + 1]!; j++) {
      const at = fill[to[j]!]!++;
      inRow[at] = j;
      inFrom[at] = u;
    }
  }
  return { start, to, p, type, reverse, inStart, inRow, inFrom };
}

/** Why `dist` has no manifest.json, and what to do: build into it only when it is missing or empty. */
export function noDistMessage(dist: string): string {
  let entries: string[] | null = null;
  try {
    entries = fs.statSync(dist).isDirectory() ? fs.readdirSync(dist) : null;
  } catch {
    return `${dist} does not exist: build the library first (skillc build <library> -o ${dist})`;
  }
  if (entries === null) return `${dist} is not a folder; --dist names the output folder of skillc build`;
  if (entries.length === 0) return `${dist} is empty: build the library first (skillc build <library> -o ${dist})`;
  return `${dist} is not a skillc dist (it has no manifest.json); --dist names the output folder of skillc build`;
}
