/**
 * Pass 2, propose (SPEC §2): a frame per unit, TF-IDF unit vectors, and single-linkage clusters of
 * units that share a verb class and reach the policy's cosine threshold. Clusters of one unit are
 * dropped; high recall is intended, the verifier filters. Skills whose parse was bounded take no part. Deterministic: units are visited in
 * parent-path then unit order and cluster ids derive from their members.
 */
import type { Cluster, Frame, Unit } from '../ir/types.js';
import { loadVerbLexicon } from '../propose/lexicon.js';
import { frameOf } from '../propose/frame.js';
import { buildTfidf } from '../propose/tfidf.js';
import { singleLinkage } from '../propose/cluster.js';
import { sha256 } from '../util/hash.js';
import type { Pass } from './pass.js';

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
    // passage repeated word for word is text with nothing to abstract (a draft of it could only
    // fail for want of a varying slot): neither takes part. A passage whose names vary stays in:
    // it may be a procedure with an input, and the verifier judges it like any other.
    const copies = new Set((ir.copies ?? []).map((c) => c.copy));
    const shared = new Set((ir.passages ?? []).filter((p) => p.slots.length === 0).flatMap((p) => p.members.map((m) => m.unit)));
    for (const p of parents) {
      // A skill whose parse was bounded is copied through: its units are a lenient scan, not
      // something to mine procedures from or rewrite.
      if (p.bounded) continue;
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
    const link = singleLinkage(model.vectors, units.map((x) => x.frame.verb), { threshold: ir.policy!.linkThreshold.tfidf });
    const groups = new Map<number, number[]>();
    link.component.forEach((root, i) => {
      let g = groups.get(root);
      if (!g) groups.set(root, (g = []));
      g.push(i);
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
        minLinkCosine: Math.round((link.minEdge.get(root) ?? 1) * 1e4) / 1e4,
      });
    }
    // Largest first, then by id: a stable order for reports and id suffixes.
    clusters.sort((a, b) => b.units.length - a.units.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    ctx.progress(3, 3);
    return { frames, clusters };
  },
};
