/**
 * What an edge rule sees and returns. Each rule (one module per edge type, listed in registry.ts)
 * is a pure function of the context; the builder concatenates and sorts their edges.
 */
import type { CallSite, Contract, Parent } from '../../ir/types.js';
import type { SparseVector } from '../../propose/tfidf.js';
import type { ArtifactLexicon, SkillIO } from '../artifacts.js';
import type { EdgeType, GraphEdge } from '../types.js';

/** A parent near another: its index in the library and their cosine. */
export interface Neighbour {
  readonly j: number;
  readonly sim: number;
}

export interface GraphContext {
  /** Parents in library order; node id of parent i is parentIds[i]. */
  readonly parents: readonly Parent[];
  readonly parentIds: readonly string[];
  /** Per parent: artifact I/O. */
  readonly io: readonly SkillIO[];
  /** The artifact lexicon the I/O was read with (rules/artifacts.json). */
  readonly artifacts: ArtifactLexicon;
  /** Per parent: TF-IDF unit vector of its whole text. */
  readonly vectors: readonly SparseVector[];
  /** Per parent: its nearest parents by cosine (sem.ts nearestParents of these vectors), when computed beforehand. */
  readonly nearest?: readonly (readonly Neighbour[])[];
  /** Contracts in the child store (auto-promoted), by id, and their node ids. */
  readonly contracts: readonly Contract[];
  readonly contractId: (id: string) => string;
  readonly callSites: readonly CallSite[];
}

export interface EdgeRule {
  readonly type: EdgeType;
  /** One line for graph.json readers and the README. */
  readonly describe: string;
  build(ctx: GraphContext): GraphEdge[];
}
