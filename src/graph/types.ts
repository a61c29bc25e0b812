/**
 * The graph index (dist/graph.json, SPEC §5): plain data, written by emit and read by the
 * retriever. Parents are the retrievable nodes; contracts are internal nodes reached through the
 * parents that invoke them. Edges are directed, typed and weighted, and each keeps the evidence
 * that created it. The lexicon holds the fielded BM25 postings so that a query needs no re-parse
 * of the library.
 */

export const GRAPH_SCHEMA_VERSION = 3;

/** A skill's node id: `skill:` and its library-relative folder (ties in ranking go by it, as by path). */
export function parentNodeId(parentPath: string): string {
  return `skill:${parentPath}`;
}

export type EdgeType = 'invokes' | 'dep' | 'wf' | 'sem' | 'alt';
export const EDGE_TYPES: readonly EdgeType[] = ['invokes', 'dep', 'wf', 'sem', 'alt'];

/** The fields BM25F scores, in this order everywhere (lexicon lengths, postings, weights). */
export const FIELDS = ['name', 'description', 'headings', 'io', 'templates', 'body'] as const;
export type FieldName = (typeof FIELDS)[number];

export interface ParentNode {
  readonly id: string;
  readonly kind: 'parent';
  /** Library-relative skill folder. */
  readonly path: string;
  readonly name: string;
  readonly description: string;
  readonly headings: readonly string[];
  /** Artifact types the skill consumes and produces (rules/artifacts.json), sorted. */
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  /** Script files of the skill (entrypoints), skill-relative. */
  readonly scripts: readonly string[];
  /** Contract ids this parent invokes, sorted. */
  readonly invokes: readonly string[];
  /** dist-relative file an agent reads for this parent: the skill as written (bundles/<path>.md for a rewritten one, else its SKILL.md). */
  readonly bundle: string;
  /** dist-relative SKILL.md. */
  readonly source: string;
  /** BPE tokens (o200k_base) of `bundle`. */
  readonly tokens: number;
  /**
   * Malicious install steps found in the skill (issue 20), as `technique at file:line:col`:
   * `skillc query` marks such a skill and withholds its steps. Absent when there are none.
   */
  readonly flagged?: readonly string[];
  /**
   * The skill has a section that is an instance of a shared passage (passages.json). A query reads
   * passages.json only when a hit has one, so most cold queries skip that file.
   */
  readonly shared?: true;
  /**
   * The skill's SKILL.md is byte for byte that of the skill at this path (IR copies): a query lists
   * the two as one hit, so a copy does not take a place of the k.
   */
  readonly copyOf?: string;
  /**
   * The skill's most distinctive terms (stemmed, as the lexicon holds them) with their weight, the
   * most distinctive first: pseudo-relevance feedback adds those of a query's best hits to it
   * (RetrievalParameters.feedback).
   */
  readonly terms: readonly (readonly [string, number])[];
}

export interface ContractNode {
  readonly id: string;
  readonly kind: 'contract';
  readonly contract: string;
  readonly trigger: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly templates: readonly string[];
}

export type GraphNode = ParentNode | ContractNode;

export interface EdgeEvidence {
  /** What the evidence is: a call-site, an artifact match, a link or mention, a similarity. */
  readonly kind: 'call-site' | 'artifact' | 'link' | 'mention' | 'cosine' | 'io-signature' | 'contract-io';
  readonly detail: string;
  /** Library-relative file and 1-based line, when the evidence sits at one place. */
  readonly file?: string;
  readonly line?: number;
}

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly type: EdgeType;
  readonly weight: number;
  readonly evidence: readonly EdgeEvidence[];
}

/** Retrieval parameters, fixed when the index is built so that a dist answers the same way everywhere. */
export interface RetrievalParameters {
  /** k3 saturates a term's frequency in the query: weight (k3 + 1)·qtf / (k3 + qtf). */
  readonly bm25: { readonly k1: number; readonly b: number; readonly k3: number; readonly fieldWeights: Readonly<Record<FieldName, number>> };
  /** Hybrid seeds: z = eta·vector + (1 − eta)·lexical, both scaled to [0, 1]; the best `count` with z ≥ minRatio·max. */
  readonly seeds: { readonly eta: number; readonly count: number; readonly minRatio: number };
  /** Personalized PageRank over the typed operator (GoS eq. 3–4). */
  readonly ppr: {
    readonly restart: number;
    readonly iterations: number;
    readonly tolerance: number;
    readonly relationWeights: Readonly<Record<EdgeType, number>>;
    readonly reverseWeights: Readonly<Record<EdgeType, number>>;
  };
  /** rho = graph/max(graph) + mu·fieldMatch; a node needs graph ≥ minGraphRatio·max(graph) to be a hit. */
  readonly rerank: { readonly mu: number; readonly minGraphRatio: number };
  /**
   * NO_SKILL_HIT when the best seed covers less than this share of the query's attainable weight:
   * the IDF weight of the query terms some skill contains (a term no skill holds no skill can match,
   * so it does not count against the best one, and long instructions full of file names do not fall).
   */
  readonly minCoverage: number;
  /**
   * Pseudo-relevance feedback: when the best seed covers less than `maxCoverage` of the query's
   * attainable weight (the task is worded otherwise than any one skill), the `terms` heaviest of
   * the `docs` best hits' distinctive terms (ParentNode.terms, each hit's weighted by its score
   * over the best's) join the query, the heaviest with query-term frequency `weight` and the others
   * in proportion, and the query is ranked again.
   */
  readonly feedback: { readonly docs: number; readonly terms: number; readonly weight: number; readonly maxCoverage: number };
}

export interface Lexicon {
  /** Node index (into `nodes`) of each document; documents are the parents. */
  readonly docs: readonly number[];
  /** Per field, the token length of each document. */
  readonly lengths: readonly (readonly number[])[];
  /** Stemmed term → "doc field tf doc field tf …" (field: index into FIELDS), sorted by doc then field. */
  readonly postings: Readonly<Record<string, string>>;
  /** Per document, the L2 norm of its body's TF-IDF vector. */
  readonly norms: readonly number[];
}

export interface GraphDocument {
  readonly schemaVersion: number;
  readonly tool: { readonly name: string; readonly version: string };
  readonly tokenizer: string;
  readonly parameters: RetrievalParameters;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly lexicon: Lexicon;
  readonly stats: { readonly parents: number; readonly contracts: number; readonly edges: Readonly<Record<EdgeType, number>> };
}
