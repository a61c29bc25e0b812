/**
 * dep: producer → consumer when an artifact the producer makes is one the consumer takes (GoS §3.2;
 * direction kept: the edge points from the prerequisite to the skill that needs it). A shared type
 * alone is no evidence of a handoff: on the corpora most such pairs were unrelated skills that both
 * mention JSON, a database or a log, found in lines like `import json` or "Write to database". So an
 * edge needs all of:
 * - declared roles: the producer says it makes the artifact, and the consumer that it takes it, in
 *   the frontmatter description or under an Inputs/Outputs heading (what the skill is for), not in
 *   a passing body line or a code example;
 * - a handoff: outside code, the producer never names the artifact as an input and the consumer
 *   never as an output (two skills that both transform JSON are not a pipeline);
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
import type { Role, SkillIO } from '../artifacts.js';
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
  describe: `the source declares (description or an Outputs section) an artifact type it outputs, never taking it, that the target declares as an input, never making it; over a general-purpose format the two share a subject (body cosine at least ${MIN_SIMILARITY}); near-copies (cosine ${MAX_SIMILARITY} or more) are not linked; per artifact, a consumer keeps its ${MAX_PRODUCERS} most similar producers; weight: the artifacts' specificity)`,
  build(ctx) {
    const users = new Map<string, number>();
    for (const io of ctx.io) for (const t of [...io.inputs, ...io.outputs]) users.set(t, (users.get(t) ?? 0) + 1);
    const n = ctx.io.length;
    const specificity = (t: string) => Math.log((1 + n) / users.get(t)!) / Math.log(1 + n);
    const producers = new Map<string, number[]>();
    const declared = (io: SkillIO, t: string, role: Role) => io.mentions.find((m) => m.type === t && m.role === role && m.where === 'declared');
    const names = (io: SkillIO, t: string, role: Role) => io.mentions.some((m) => m.type === t && m.role === role && m.where !== 'code');
    ctx.io.forEach((io, i) => {
      for (const t of io.outputs) {
        if (!declared(io, t, 'output') || names(io, t, 'input')) continue;
        let list = producers.get(t);
        if (!list) producers.set(t, (list = []));
        list.push(i);
      }
    });
    const edges = new Map<string, { from: number; to: number; evidence: EdgeEvidence[]; weight: number }>();
    ctx.io.forEach((io, v) => {
      for (const t of io.inputs) {
        const consumed = declared(io, t, 'input');
        if (!consumed || names(io, t, 'output')) continue;
        const candidates = (producers.get(t) ?? []).filter((u) => u !== v);
        const ranked = candidates
          .map((u) => ({ u, sim: cosine(ctx.vectors[u]!, ctx.vectors[v]!) }))
          .filter((c) => (c.sim >= MIN_SIMILARITY || !ctx.artifacts.carriers.has(t)) && c.sim < MAX_SIMILARITY)
          .sort((a, b) => b.sim - a.sim || (ctx.parentIds[a.u]! < ctx.parentIds[b.u]! ? -1 : 1))
          .slice(0, MAX_PRODUCERS);
        for (const { u } of ranked) {
          const produced = declared(ctx.io[u]!, t, 'output')!;
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
