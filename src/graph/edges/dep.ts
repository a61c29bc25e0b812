/**
 * dep: producer → consumer when an artifact the producer makes is one the consumer takes (GoS §3.2;
 * direction kept: the edge points from the prerequisite to the skill that needs it). A shared type
 * alone is no evidence of a handoff (on the corpora three in four such pairs were unrelated skills
 * that both mention JSON, a database or a log), so an edge needs all of:
 * - a handoff: the producer names the artifact only as something it outputs, never as an input,
 *   and the consumer only as an input, never as an output (two skills that both transform JSON are
 *   not a pipeline);
 * - for a general-purpose format (rules/artifacts.json `carriers`: JSON, CSV, a database, a log), a
 *   shared subject: TF-IDF cosine of the two bodies at least MIN_SIMILARITY; a domain artifact (a
 *   PCAP, a mesh, a sequence) names the subject itself;
 * - two skills, not two copies: cosine below MAX_SIMILARITY (near-copies are alternatives).
 * Indexed by artifact, so cost follows the number of matching pairs, not all pairs. Each consumer
 * keeps its `MAX_PRODUCERS` producers most similar to it (ties by node id) per artifact, and an edge
 * weighs the specificity of the artifacts it carries, ln((1 + N)/users)/ln(1 + N), in (0, 1]: a
 * shared PCAP says more about a prerequisite than a shared JSON file.
 */
import { cosine } from '../../propose/tfidf.js';
import type { EdgeEvidence, GraphEdge } from '../types.js';
import type { EdgeRule } from './edge-rule.js';
import { roundTo } from '../../util/round.js';

export const MAX_PRODUCERS = 3;
/** Below this two skills handing on a general-purpose format share no subject (on the corpora, unrelated pairs sat at 0.09–0.15). */
export const MIN_SIMILARITY = 0.15;
/** At or above this the two are copies of one skill. */
export const MAX_SIMILARITY = 0.8;

export const depRule: EdgeRule = {
  type: 'dep',
  describe: `the source outputs an artifact type, never taking it, that the target takes as input, never making it; over a general-purpose format the two share a subject (body cosine at least ${MIN_SIMILARITY}); near-copies (cosine ${MAX_SIMILARITY} or more) are not linked; per artifact, a consumer keeps its ${MAX_PRODUCERS} most similar producers; weight: the artifacts' specificity)`,
  build(ctx) {
    const users = new Map<string, number>();
    for (const io of ctx.io) for (const t of [...io.inputs, ...io.outputs]) users.set(t, (users.get(t) ?? 0) + 1);
    const n = ctx.io.length;
    const specificity = (t: string) => Math.log((1 + n) / users.get(t)!) / Math.log(1 + n);
    const producers = new Map<string, number[]>();
    const names = (io: (typeof ctx.io)[number], t: string, role: 'input' | 'output') => io.mentions.some((m) => m.type === t && m.role === role);
    ctx.io.forEach((io, i) => {
      for (const t of io.outputs) {
        if (names(io, t, 'input')) continue;
        let list = producers.get(t);
        if (!list) producers.set(t, (list = []));
        list.push(i);
      }
    });
    const edges = new Map<string, { from: number; to: number; evidence: EdgeEvidence[]; weight: number }>();
    ctx.io.forEach((io, v) => {
      for (const t of io.inputs) {
        if (names(io, t, 'output')) continue;
        const candidates = (producers.get(t) ?? []).filter((u) => u !== v);
        const ranked = candidates
          .map((u) => ({ u, sim: cosine(ctx.vectors[u]!, ctx.vectors[v]!) }))
          .filter((c) => (c.sim >= MIN_SIMILARITY || !ctx.artifacts.carriers.has(t)) && c.sim < MAX_SIMILARITY)
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
