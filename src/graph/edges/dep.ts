/**
 * dep: producer → consumer when an artifact type the producer outputs is one the consumer takes as
 * input (GoS §3.2; direction kept: the edge points from the prerequisite to the skill that needs
 * it). Indexed by artifact, so cost follows the number of matching pairs, not all pairs. Common
 * artifacts (images, JSON) would tie every consumer to every producer, so each consumer keeps its
 * `MAX_PRODUCERS` producers most similar to it (TF-IDF cosine, ties by node id) per artifact, and
 * an edge weighs the specificity of the artifacts it carries, ln((1 + N)/users)/ln(1 + N), in (0, 1]:
 * a shared PCAP says more about a prerequisite than a shared JSON file.
 */
import { cosine } from '../../propose/tfidf.js';
import type { EdgeEvidence, GraphEdge } from '../types.js';
import type { EdgeRule } from './edge-rule.js';
import { roundTo } from '../../util/round.js';

export const MAX_PRODUCERS = 3;

export const depRule: EdgeRule = {
  type: 'dep',
  describe: `the source outputs an artifact type the target takes as input (per artifact, a consumer keeps its ${MAX_PRODUCERS} most similar producers; weight: the artifacts' specificity)`,
  build(ctx) {
    const users = new Map<string, number>();
    for (const io of ctx.io) for (const t of [...io.inputs, ...io.outputs]) users.set(t, (users.get(t) ?? 0) + 1);
    const n = ctx.io.length;
    const specificity = (t: string) => Math.log((1 + n) / users.get(t)!) / Math.log(1 + n);
    const producers = new Map<string, number[]>();
    ctx.io.forEach((io, i) => {
      for (const t of io.outputs) {
        let list = producers.get(t);
        if (!list) producers.set(t, (list = []));
        list.push(i);
      }
    });
    const edges = new Map<string, { from: number; to: number; evidence: EdgeEvidence[]; weight: number }>();
    ctx.io.forEach((io, v) => {
      for (const t of io.inputs) {
        const candidates = (producers.get(t) ?? []).filter((u) => u !== v);
        const ranked = candidates
          .map((u) => ({ u, sim: cosine(ctx.vectors[u]!, ctx.vectors[v]!) }))
          .sort((a, b) => b.sim - a.sim || (ctx.parentIds[a.u]! < ctx.parentIds[b.u]! ? -1 : 1))
          .slice(0, MAX_PRODUCERS);
        const consumed = io.mentions.find((m) => m.type === t && m.role === 'input')!;
        for (const { u } of ranked) {
          const produced = ctx.io[u]!.mentions.find((m) => m.type === t && m.role === 'output')!;
          const key = `${u} ${v}`;
          const e = edges.get(key) ?? { from: u, to: v, evidence: [], weight: 0 };
          e.weight += specificity(t);
          e.evidence.push(
            { kind: 'artifact', detail: `outputs ${t}`, file: produced.file, line: produced.line },
            { kind: 'artifact', detail: `takes ${t} as input`, file: consumed.file, line: consumed.line },
          );
          edges.set(key, e);
        }
      }
    });
    return [...edges.values()].map(
      (e): GraphEdge => ({ from: ctx.parentIds[e.from]!, to: ctx.parentIds[e.to]!, type: 'dep', weight: roundTo(e.weight, 4), evidence: e.evidence }),
    );
  },
};
