/**
 * What calibration draws its controls from. The first library is the one being calibrated: it is
 * built through the verify pass, so its real candidates (clusters, drafts, profiles) are known.
 * Further libraries only supply the foreign side of A_cross_domain; they are parsed and framed.
 * Their skills are renamed `<label>:<path>` so that paths never collide with the first library's,
 * and a skill whose SKILL.md is byte-identical to one in the first library is left out (corpora
 * overlap, and a copy of a skill is not another domain).
 */
import path from 'node:path';
import type { Cluster, Contract, Frame, Parent, Profile, Unit } from '../ir/types.js';
import type { Diagnostic } from '../ir/diagnostics.js';
import type { MemberUnit } from '../extract/contract.js';
import type { Policy } from '../policy/policy.js';
import { loadLibrary, DEFAULT_MAX_SKILL_BYTES } from '../load/load-library.js';
import { runPipeline, type PipelineHooks } from '../passes/driver.js';
import { PASSES } from '../passes/registry.js';
import { actionLines } from '../extract/action-lines.js';
import { shapeKey } from '../extract/anti-unify.js';
import { buildTfidf, cosine, type SparseVector } from '../propose/tfidf.js';

export interface LibraryPopulation {
  readonly index: number;
  readonly label: string;
  readonly root: string;
  readonly skills: number;
  /** Skills left out because the first library holds the same SKILL.md (foreign libraries only). */
  readonly duplicatesDropped: number;
  readonly parents: readonly Parent[];
}

/** A unit that can take part in a control: it has a frame and at least one action line. */
export interface PoolUnit {
  readonly lib: number;
  readonly member: MemberUnit;
  readonly frame: Frame;
  /** Action-line shapes (source and first token): two units can only share a template if they share one. */
  readonly shapes: readonly string[];
  /** Index into the population's vectors. */
  readonly vector: number;
  /** Real cluster of the first library holding this unit, if any. */
  readonly cluster: string | null;
}

export interface RealCandidate {
  readonly cluster: Cluster;
  readonly contract: Contract | null;
  readonly profile: Profile;
  readonly members: readonly MemberUnit[];
}

export interface Population {
  readonly libraries: readonly LibraryPopulation[];
  readonly units: readonly PoolUnit[];
  readonly candidates: readonly RealCandidate[];
  readonly vectors: readonly SparseVector[];
  readonly diagnostics: number;
}

export interface PopulationOptions {
  readonly policy: Policy;
  readonly jobs?: number;
  readonly maxSkillBytes?: number;
  readonly onStage?: (label: string) => void;
  readonly hooks?: PipelineHooks;
}

export async function buildPopulation(roots: readonly string[], opts: PopulationOptions): Promise<Population> {
  const libraries: LibraryPopulation[] = [];
  const units: Omit<PoolUnit, 'vector'>[] = [];
  const texts: string[] = [];
  let candidates: RealCandidate[] = [];
  let diagnostics = 0;
  const primaryHashes = new Set<string>();
  const labels = uniqueLabels(roots);
  for (const [index, root] of roots.entries()) {
    opts.onStage?.(`${labels[index]}`);
    const source = loadLibrary(root, { maxSkillBytes: opts.maxSkillBytes ?? DEFAULT_MAX_SKILL_BYTES });
    // The same units as the build mines: copies and shared passages are left out by the passages pass.
    const wanted = index === 0 ? ['parse', 'passages', 'propose', 'extract', 'verify'] : ['parse', 'passages', 'propose'];
    const passes = PASSES.filter((p) => wanted.includes(p.name));
    const result = await runPipeline({ source, policy: opts.policy }, passes, opts.hooks, opts.jobs ?? 1);
    diagnostics += result.diagnostics.length;
    const ir = result.ir;
    let parents = ir.parents ?? [];
    let dropped = 0;
    if (index === 0) {
      for (const p of parents) primaryHashes.add(p.sha256);
    } else {
      const kept = parents.filter((p) => !primaryHashes.has(p.sha256));
      dropped = parents.length - kept.length;
      parents = kept.map((p) => renamed(p, `${labels[index]}:`));
    }
    libraries.push({ index, label: labels[index]!, root, skills: source.skills.length, duplicatesDropped: dropped, parents });

    const frames = new Map((ir.frames ?? []).map((f) => [index === 0 ? f.unit : `${labels[index]}:${f.unit}`, f]));
    const clusterOf = new Map<string, string>();
    if (index === 0) {
      const byUnit = new Map<string, MemberUnit>();
      for (const p of parents) for (const u of p.units) byUnit.set(u.id, { unit: u, parent: p });
      const contracts = new Map((ir.contracts ?? []).map((c) => [c.cluster, c]));
      const profiles = new Map((ir.profiles ?? []).map((x) => [x.cluster, x]));
      candidates = (ir.clusters ?? []).map((cluster) => {
        for (const u of cluster.units) clusterOf.set(u, cluster.id);
        return { cluster, contract: contracts.get(cluster.id) ?? null, profile: profiles.get(cluster.id)!, members: cluster.units.map((u) => byUnit.get(u)!) };
      });
    }
    for (const p of parents) {
      for (const u of p.units) {
        const frame = frames.get(u.id);
        if (!frame) continue;
        const shapes = [...new Set(actionLines(u).map((l) => shapeKey(l.source, l.tokens[0] ?? '')))].sort();
        if (shapes.length === 0) continue;
        units.push({ lib: index, member: { unit: u, parent: p }, frame, shapes, cluster: clusterOf.get(u.id) ?? null });
        texts.push(u.text);
      }
    }
  }
  const model = buildTfidf(texts);
  return { libraries, units: units.map((u, vector) => ({ ...u, vector })), candidates, vectors: model.vectors, diagnostics };
}

export function similarity(pop: Population, a: PoolUnit, b: PoolUnit): number {
  return cosine(pop.vectors[a.vector]!, pop.vectors[b.vector]!);
}

function renamed(p: Parent, prefix: string): Parent {
  const units: Unit[] = p.units.map((u) => ({ ...u, id: prefix + u.id }));
  const files = (xs: Parent['scripts']) => xs.map((f) => ({ ...f, path: prefix + f.path }));
  return { ...p, path: prefix + p.path, file: prefix + p.file, units, scripts: files(p.scripts), references: files(p.references), assets: files(p.assets) };
}

/** Folder names, made unique with the position when two libraries share one. */
function uniqueLabels(roots: readonly string[]): string[] {
  const base = roots.map((r) => path.basename(path.resolve(r)) || 'library');
  return base.map((b, i) => (base.filter((x) => x === b).length > 1 ? `${b}-${i + 1}` : b));
}
