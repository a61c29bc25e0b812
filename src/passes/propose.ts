/**
 * Pass 2, propose (SPEC §2): a frame per unit, TF-IDF unit vectors, and single-linkage clusters of
 * units that share a verb class and reach the policy's cosine threshold; besides them, one cluster
 * per action template that authors of two or more skills wrote (propose/template-clusters.ts). Clusters of one unit are
 * dropped; high recall is intended, the verifier filters. Skills whose parse was bounded take no part. Deterministic: units are visited in
 * parent-path then unit order and cluster ids derive from their members.
 */
import type { Cluster, Frame, Unit } from '../ir/types.js';
import { loadVerbLexicon } from '../propose/lexicon.js';
import { frameOf } from '../propose/frame.js';
import { buildTfidf } from '../propose/tfidf.js';
import { singleLinkage, splitChains } from '../propose/cluster.js';
import { SpreadVector, type SparseVector } from '../propose/tfidf.js';
import { templateClusters } from '../propose/template-clusters.js';
import { sha256 } from '../util/hash.js';
import type { Pass } from './pass.js';

/**
 * Least cosine of a member to its cluster's centroid for the cluster to stand (issue 19 item 3).
 * Below it the cluster is a chain and is linked again at a higher threshold. 0.35: members of a
 * cluster of near-copies sit at 0.8 and above, and a member at the far end of a chain of
 * different sections falls under 0.3.
 */
const CORE_MIN = 0.35;

/** The smallest edge of a maximum spanning tree over the members: what linked the last of them. */
export function minLinkWithin(vectors: readonly SparseVector[], members: readonly number[]): number {
  // Prim's algorithm: each member not yet reached keeps its best cosine to those reached. The pick
  // is the highest, the smallest member on ties, so the order the rest are scanned in is free.
  const rest = members.slice(1);
  const best = new Float64Array(rest.length);
  const spread = new SpreadVector();
  spread.load(vectors[members[0]!]!);
  rest.forEach((m, k) => (best[k] = spread.cosine(vectors[m]!)));
  let left = rest.length;
  let min = 1;
  while (left > 0) {
    let at = -1;
    let pick = -1;
    let value = -1;
    for (let k = 0; k < left; k++) {
      const m = rest[k]!;
      const c = best[k]!;
      if (c > value || (c === value && m < pick)) {
        at = k;
        pick = m;
        value = c;
      }
    }
    min = Math.min(min, value);
    // The picked member leaves: the last one takes its place.
    left--;
    rest[at] = rest[left]!;
    best[at] = best[left]!;
    spread.load(vectors[pick]!);
    for (let k = 0; k < left; k++) best[k] = Math.max(best[k]!, spread.cosine(vectors[rest[k]!]!));
  }
  return min;
}

export const proposePass: Pass = {
  name: 'propose',
  description: 'frames per unit, TF-IDF vectors, single-linkage clusters of units sharing a verb class',
  version: 1,
  requires: ['parents', 'policy'],
  provides: ['frames', 'clusters'],
  run(ir, ctx) {
    const lexicon = loadVerbLexicon();
    const parents = ir.parents!;
    const frames: Frame[] = [];
    const units: { unit: Unit; parent: string; frame: Frame }[] = [];
    // Copies are mined once (their original stands for them), and a section that is a shared
    // passage — repeated word for word, or with only names and numbers changed — is already
    // abstracted: the passage states it once with its names as slots. Neither takes part in the
    // similarity clusters (boilerplate repeated in hundreds of skills would otherwise make the
    // largest of them); the lines of a passage still count for author templates.
    const copies = new Set((ir.copies ?? []).map((c) => c.copy));
    const shared = new Set((ir.passages ?? []).filter((p) => p.slots.length === 0).flatMap((p) => p.members.map((m) => m.unit)));
    for (const p of parents) {
      // A skill whose parse was bounded is copied through: its units are a lenient scan, not
      // something to mine procedures from or rewrite. A skill with a malicious install step
      // (issue 20) is copied as written too: no contract may name it as a source.
      if (p.bounded || p.malicious) continue;
      for (const u of p.units) {
        const f = frameOf(p, u, lexicon);
        frames.push(f);
        if (copies.has(p.path) || shared.has(u.id)) continue;
        if (f.verb !== null && u.text.trim() !== '') units.push({ unit: u, parent: p.path, frame: f });
      }
    }
    ctx.progress(1, 3);
    const model = buildTfidf(units.map((x) => x.unit.text));
    ctx.progress(2, 3);
    const threshold = ir.policy!.linkThreshold.tfidf;
    const blocks = units.map((x) => x.frame.verb);
    const link = singleLinkage(model.vectors, blocks, { threshold });
    const components = new Map<number, number[]>();
    link.component.forEach((root, i) => {
      let g = components.get(root);
      if (!g) components.set(root, (g = []));
      g.push(i);
    });
    // Chains split where their members share no core.
    const groups: [number, number[]][] = [...components].flatMap(([root, members]) => {
      const parts = splitChains(model.vectors, blocks, members, threshold, { coreMin: CORE_MIN });
      return parts.length === 1 && parts[0]!.length === members.length ? [[root, members] as [number, number[]]] : parts.map((p) => [-1, p] as [number, number[]]);
    });
    const clusters: Cluster[] = [];
    for (const [root, members] of groups) {
      if (members.length < 2) continue;
      const ids = members.map((i) => units[i]!.unit.id);
      const objectCount = new Map<string, number>();
      for (const i of members) for (const o of units[i]!.frame.objects) objectCount.set(o, (objectCount.get(o) ?? 0) + 1);
      const objects = [...objectCount].filter(([, c]) => c * 2 >= members.length).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([o]) => o).slice(0, 3);
      clusters.push({
        id: `c-${sha256(ids.join('\n')).slice(0, 12)}`,
        units: ids,
        parents: [...new Set(members.map((i) => units[i]!.parent))].sort(),
        verb: units[members[0]!]!.frame.verb!,
        objects,
        minLinkCosine: Math.round((root >= 0 ? link.minEdge.get(root) ?? 1 : minLinkWithin(model.vectors, members)) * 1e4) / 1e4,
        origin: 'similarity',
      });
    }
    // Actions the authors wrote as templates, wherever they stand.
    clusters.push(...templateClusters(parents, (p) => !p.bounded && !p.malicious && !copies.has(p.path), lexicon));
    // Largest first, then by id: a stable order for reports and ids.
    clusters.sort((a, b) => b.units.length - a.units.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    ctx.progress(3, 3);
    return { frames, clusters };
  },
};
