/**
 * Builds the graph index from the IR (SPEC §5): parent nodes with their retrieval fields, contract
 * nodes for the child store (auto-promoted contracts), the edges of every rule in the registry and
 * the BM25F lexicon. Pure: the caller passes each parent's bundle path and BPE token count.
 */
import path from 'node:path';
import type { BuildIR, Contract, Parent } from '../ir/types.js';
import { buildTfidfFromCounts, indexTermCounts, type SparseVector, type TermCounts } from '../propose/tfidf.js';
import type { Neighbour } from './edges/edge-rule.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { TOKENIZER } from '../text/bpe.js';
import { loadArtifactLexicon, skillIO, type SkillIO } from './artifacts.js';
import { EDGE_RULES } from './edges/registry.js';
import { DISTINCTIVE_TERMS, indexDocuments, type FieldTexts } from './lexicon.js';
import { DEFAULT_PARAMETERS } from './parameters.js';
import { EDGE_TYPES, FIELDS, GRAPH_SCHEMA_VERSION, parentNodeId, type ContractNode, type EdgeType, type GraphDocument, type GraphEdge, type ParentNode } from './types.js';

export interface ParentHydration {
  /** dist-relative file an agent reads for the parent. */
  readonly bundle: string;
  readonly source: string;
  readonly tokens: number;
}


export function contractNodeId(id: string): string {
  return `contract:${id}`;
}

/**
 * The per-skill work of a graph, which a build may take from its cache (values of earlier builds
 * by a key of their exact input; see emit/library.ts). Either way the values are these functions'.
 */
export interface GraphMemo {
  readonly termCounts: (text: string) => TermCounts;
  /** termCounts of a parent's body (bodyText(p), given): bodies may have been counted beforehand. */
  readonly bodyCounts?: (p: Parent, body: string) => TermCounts;
  /** skillIO with the rules' artifact lexicon (rules/ is in every cache key's code fingerprint). */
  readonly skillIO: (p: Parent) => SkillIO;
}

const COMPUTE: GraphMemo = { termCounts: indexTermCounts, skillIO: (p) => skillIO(p, loadArtifactLexicon()) };

/**
 * Library-wide values a build computed beforehand from the very body counts the graph reads (in a
 * worker thread while its passes ran, emit/text-facts.ts): the TF-IDF vectors of the bodies and
 * each parent's nearest parents (edges/sem.ts nearestParents).
 */
export interface BodyModel {
  /** The body counts the model was computed from: it is used only when the graph reads these very objects. */
  readonly counts: readonly TermCounts[];
  readonly vectors: readonly SparseVector[];
  readonly nearest: readonly (readonly Neighbour[])[];
}

export function buildGraph(ir: BuildIR, hydration: ReadonlyMap<string, ParentHydration>, memo: GraphMemo = COMPUTE, bodyModel?: BodyModel): GraphDocument {
  const parents = ir.parents ?? [];
  const decisions = new Map((ir.profiles ?? []).map((p) => [p.cluster, p.decision]));
  // A contract is a node only when some skill invokes it: the child store is reached through invokes.
  const invokedIds = new Set((ir.callSites ?? []).map((cs) => cs.contract));
  const contracts = (ir.contracts ?? []).filter((c) => decisions.get(c.cluster) === 'auto_promote' && invokedIds.has(c.id));
  const byContract = new Map(contracts.map((c) => [c.id, c]));
  const callSites = (ir.callSites ?? []).filter((cs) => byContract.has(cs.contract));
  const invoked = new Map<string, Set<string>>();
  for (const cs of callSites) {
    let s = invoked.get(cs.parent);
    if (!s) invoked.set(cs.parent, (s = new Set()));
    s.add(cs.contract);
  }

  const lex = loadArtifactLexicon();
  const io = parents.map((p) => memo.skillIO(p));
  const parentIds = parents.map((p) => parentNodeId(p.path));
  // Each body is tokenised once, for the sem rule's TF-IDF vectors and for the lexicon's body field.
  const bodies = parents.map(bodyText);
  const bodyCounts = bodies.map((body, i) => (memo.bodyCounts ? memo.bodyCounts(parents[i]!, body) : memo.termCounts(body)));
  // The model holds only if every body's counts are the model's own (a copy's may be another
  // copy's, equal by construction); counts a build cache gave are not, whatever they say.
  const modelCounts = new Set(bodyModel?.counts);
  const model = bodyModel && bodyModel.vectors.length === parents.length && bodyModel.nearest.length === parents.length && bodyCounts.every((c) => modelCounts.has(c)) ? bodyModel : undefined;
  const vectors = model?.vectors ?? buildTfidfFromCounts(bodyCounts).vectors;

  const sharing = new Set((ir.passages ?? []).flatMap((x) => x.members.map((m) => m.parent)));
  const copyOf = new Map((ir.copies ?? []).map((c) => [c.copy, c.of] as const));
  const nodesWithoutTerms: Omit<ParentNode, 'terms'>[] = parents.map((p, i) => {
    const h = hydration.get(p.path)!;
    return {
      id: parentIds[i]!,
      kind: 'parent',
      path: p.path,
      name: nameOf(p),
      description: descriptionOf(p),
      headings: p.units.flatMap((u) => (u.heading ? [u.heading] : [])),
      inputs: io[i]!.inputs,
      outputs: io[i]!.outputs,
      scripts: p.scripts.map((s) => s.relPath).sort(),
      invokes: [...(invoked.get(p.path) ?? [])].sort(),
      bundle: h.bundle,
      source: h.source,
      tokens: h.tokens,
      ...(sharing.has(p.path) ? { shared: true as const } : {}),
      ...(copyOf.has(p.path) ? { copyOf: copyOf.get(p.path)! } : {}),
      ...(p.malicious ? { flagged: p.malicious.map((m) => `${m.technique} at ${m.file}:${m.line}:${m.column}`) } : {}),
    };
  });
  const contractNodes: ContractNode[] = [...contracts]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((c) => ({
      id: contractNodeId(c.id),
      kind: 'contract',
      contract: `contracts/${c.id}.json`,
      trigger: c.trigger,
      inputs: c.input_schema.map((f) => `${f.name}: ${f.type}`),
      outputs: c.output_schema.map((f) => `${f.name}: ${f.type}`),
      templates: c.templates.map((t) => t.template),
    }));

  const ctx = { parents, parentIds, io, artifacts: lex, vectors, ...(model ? { nearest: model.nearest } : {}), contracts, contractId: contractNodeId, callSites };
  const edges = EDGE_RULES.flatMap((rule) => rule.build(ctx)).sort(compareEdges);
  const counts = Object.fromEntries(EDGE_TYPES.map((t) => [t, 0])) as Record<EdgeType, number>;
  for (const e of edges) counts[e.type]++;

  const fieldCounts = parents.map((p, i) => {
    const texts = fieldTexts(nodesWithoutTerms[i]!, p, nodesWithoutTerms[i]!.invokes.map((id) => byContract.get(id)!), bodies[i]!);
    return FIELDS.map((f) => (f === 'body' ? bodyCounts[i]! : memo.termCounts(texts[f])));
  });
  const { lexicon, terms } = indexDocuments(parents.map((_, i) => i), fieldCounts, DISTINCTIVE_TERMS);
  const parentNodes: ParentNode[] = nodesWithoutTerms.map((n, i) => ({ ...n, terms: terms[i]! }));
  return {
    schemaVersion: GRAPH_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    tokenizer: TOKENIZER,
    parameters: DEFAULT_PARAMETERS,
    nodes: [...parentNodes, ...contractNodes],
    edges,
    lexicon,
    stats: { parents: parentNodes.length, contracts: contractNodes.length, edges: counts },
  };
}

/** The text BM25F indexes per field, from the parent's node. The body is the original text, so a rewritten parent is found by what it used to say. */
export function fieldTexts(node: Omit<ParentNode, 'terms'>, p: Parent, invoked: readonly Contract[], body = bodyText(p)): FieldTexts {
  return {
    name: `${node.name} ${path.posix.basename(p.path)}`,
    description: node.description,
    headings: node.headings.join('\n'),
    io: [...node.inputs, ...node.outputs, ...node.scripts, ...invoked.flatMap((c) => [...c.input_schema, ...c.output_schema].map((f) => f.name))].join(' '),
    templates: invoked.flatMap((c) => [c.trigger, ...c.templates.map((t) => t.template)]).join('\n'),
    body,
  };
}

function bodyText(p: Parent): string {
  return p.units.map((u) => u.text).join('');
}

function nameOf(p: Parent): string {
  const n = p.frontmatter.data?.['name'];
  return typeof n === 'string' && n.trim() ? n.trim() : path.posix.basename(p.path);
}

function descriptionOf(p: Parent): string {
  const d = p.frontmatter.data?.['description'];
  if (typeof d === 'string') return d.trim();
  // A description YAML could not read as text (`description: Reorder orders. Triggers: order
  // food` is a mapping to YAML, an error lint reports) is still the author's sentence: its line
  // as written stands for it in the index, so the skill is not listed without one.
  if (d === undefined || (d !== null && typeof d === 'object')) {
    // The value goes on over the indented lines after it (a plain scalar folded over lines), and
    // an unquoted value ends where a ' #' comment starts.
    const m = /^description:[ \t]*(\S[^\r\n]*)((?:\r?\n[ \t]+\S[^\r\n]*)*)/m.exec(p.frontmatter.yaml);
    const first = m?.[1]?.trim() ?? '';
    if (first && !/^[|>&*!]/.test(first)) {
      const quoted = /^["']/.test(first);
      const lines = [first, ...(m![2] ?? '').split(/\r?\n/).map((l) => l.trim()).filter(Boolean)];
      const text = lines.map((l) => (quoted ? l : l.replace(/(^|[ \t])#.*$/, '').trim())).filter(Boolean).join(' ');
      return text.replace(/^(["'])(.*)\1$/, '$2');
    }
  }
  return '';
}

function compareEdges(a: GraphEdge, b: GraphEdge): number {
  const t = EDGE_TYPES.indexOf(a.type) - EDGE_TYPES.indexOf(b.type);
  if (t !== 0) return t;
  return a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0;
}
