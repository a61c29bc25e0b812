/**
 * A built library (`skillc build <library> -o <dist>`) as the library-aware lint rules see it: the
 * auto-promoted contracts (the only ones the build ever invokes, see passes/bind.ts) with the verb
 * class of their cluster, the verb lexicon the build's Rewrite Cleanup uses, and the SHA-256 of
 * every SKILL.md the build read (to recognise a source parent that was moved). Everything read is
 * validated against its schema; a folder that is not a dist, misses a file or holds an invalid one
 * is a DistError naming the file and what is wrong. Files are read through util/confined-read, so
 * a contract id in candidates.json cannot lead the read outside the dist (`../../x`), and a
 * folder, device or oversized file in place of a JSON document is a DistError too.
 *
 * Also here, because both library rules need it and it only runs with a dist: which units of a
 * skill the build would bind to a contract (`boundUnits`), computed once per parsed skill.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CallSiteAction, CandidateRecord, Contract, Parent, Unit } from '../ir/types.js';
import { bindUnit } from '../bind/call-site.js';
import { actionLines, type ActionLine } from '../extract/action-lines.js';
import { frameOf } from '../propose/frame.js';
import { loadVerbLexicon, type VerbLexicon } from '../propose/lexicon.js';
import { formatInvoke } from '../rewrite/invoke.js';
import { headingLength } from '../rewrite/splice.js';
import { anchorOf } from '../rewrite/templates.js';
import { validateAgainst, type SchemaName } from '../schema/validate.js';
import { compareCodeUnits } from '../util/stable-json.js';
import { DistReadError, MAX_INDEX_BYTES, readDistFile } from '../util/confined-read.js';

/** An auto-promoted contract of the dist. */
export interface DistContract {
  readonly contract: Contract;
  /** Verb class of the contract's cluster (its members' frame verb): Rewrite Cleanup needs it. */
  readonly verb: string;
  /** The longest constant word of each template: a unit holding none of them is no call-site. */
  readonly anchors: readonly string[];
  /** The skills (library-relative paths) the build rewrote to invoke it. */
  readonly rewrittenIn: ReadonlySet<string>;
}

export interface LintDist {
  /** Absolute path of the dist folder. */
  readonly dir: string;
  /** The auto-promoted contracts, by id. */
  readonly contracts: readonly DistContract[];
  /** The verb lexicon (rules/verbs.json) the build's Rewrite Cleanup classifies verbs with. */
  readonly lexicon: VerbLexicon;
  /** Library-relative path of every SKILL.md the build read → its SHA-256 (from manifest.json). */
  readonly skillHashes: ReadonlyMap<string, string>;
}

export class DistError extends Error {}

/** The files that make a folder a dist and what the rules read from it. */
const MANIFEST = 'manifest.json';
const CANDIDATES = 'candidates.json';

/**
 * Loaded dists by folder. The lint command checks --dist up front and the services load it again
 * for the rules: the second load is free unless manifest.json changed in between (a rebuild).
 */
const loaded = new Map<string, { readonly stamp: string; readonly dist: LintDist }>();

export function loadLintDist(dir: string): LintDist {
  const root = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch {
    throw new DistError(`${dir}: no such folder (build the library first: skillc build <library> -o ${dir})`);
  }
  if (!stat.isDirectory()) throw new DistError(`${dir} is not a folder; --dist takes the output folder of skillc build`);
  const manifestFile = path.join(root, MANIFEST);
  let manifestStat: fs.Stats;
  try {
    manifestStat = fs.statSync(manifestFile);
  } catch {
    throw new DistError(`${dir} is not a skillc dist: it has no ${MANIFEST} (build one with skillc build <library> -o ${dir})`);
  }
  const stamp = `${manifestStat.mtimeMs}:${manifestStat.size}`;
  const hit = loaded.get(root);
  if (hit && hit.stamp === stamp) return hit.dist;
  const dist = readDist(root);
  loaded.set(root, { stamp, dist });
  return dist;
}

function readDist(root: string): LintDist {
  const manifest = readArtifact(root, MANIFEST, 'manifest') as { inputs: { path: string; sha256: string }[] };
  const candidatesFile = path.join(root, CANDIDATES);
  const candidates = (
    readArtifact(root, CANDIDATES, 'candidates', undefined, `${candidatesFile} is missing: the dist is incomplete (rebuild it with skillc build <library> -o ${root})`) as {
      candidates: CandidateRecord[];
    }
  ).candidates;

  const contracts: DistContract[] = [];
  for (const c of candidates) {
    // Review and rejected contracts are never invoked by the build, so nothing can re-describe them.
    if (c.profile.decision !== 'auto_promote') continue;
    const id = c.profile.contract;
    if (id === null) throw new DistError(`${candidatesFile}: cluster ${c.cluster.id} is auto-promoted but names no contract`);
    const rel = `contracts/${id}.json`;
    const file = path.join(root, 'contracts', `${id}.json`);
    const namedBy = { file: candidatesFile, what: 'contract file', owner: `cluster ${c.cluster.id}` };
    const doc = readArtifact(root, rel, 'contract', namedBy, `${file} is missing, but ${CANDIDATES} auto-promotes contract ${id}`) as Contract & { verifier_stats?: unknown; call_sites?: unknown };
    if (doc.id !== id) throw new DistError(`${file} holds contract '${doc.id}', not '${id}'`);
    if (doc.cluster !== c.cluster.id) throw new DistError(`${file} belongs to cluster ${doc.cluster}, but ${CANDIDATES} promotes it for cluster ${c.cluster.id}`);
    // The dist's extras (verifier profile, call-sites) are not part of the contract itself.
    const { verifier_stats: _profile, call_sites: sites, ...contract } = doc;
    const rewrittenIn = new Set(Array.isArray(sites) ? sites.flatMap((x) => (typeof (x as { parent?: unknown }).parent === 'string' ? [(x as { parent: string }).parent] : [])) : []);
    contracts.push({ contract, verb: c.cluster.verb, anchors: contract.templates.map(anchorOf).filter((a) => a !== ''), rewrittenIn });
  }
  contracts.sort((a, b) => compareCodeUnits(a.contract.id, b.contract.id));

  const skillHashes = new Map(manifest.inputs.filter((f) => f.path === 'SKILL.md' || f.path.endsWith('/SKILL.md')).map((f) => [f.path, f.sha256] as const));
  return { dir: root, contracts, lexicon: loadVerbLexicon(), skillHashes };
}

/** A JSON document of the dist, read confined to it and validated; `ifMissing` is the message when it does not exist. */
function readArtifact(root: string, rel: string, schema: SchemaName, namedBy?: { file: string; what: string; owner?: string }, ifMissing?: string): unknown {
  const file = path.join(root, rel);
  let text: string;
  try {
    text = readDistFile(root, rel, { maxBytes: MAX_INDEX_BYTES, ...(namedBy ? { namedBy } : {}) }).toString('utf8');
  } catch (err) {
    if (!(err instanceof DistReadError)) throw new DistError(`${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    throw new DistError(err.problem === 'missing' && ifMissing ? ifMissing : err.message);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DistError(`${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const check = validateAgainst(schema, data);
  if (!check.valid) throw new DistError(`${file} does not match schemas/${schema}.schema.json: ${check.errors.join('; ')}`);
  return data;
}

/** A unit of a skill that the build would replace by an invoke of `entry`'s contract. */
export interface BoundUnit {
  readonly unit: Unit;
  readonly entry: DistContract;
  /** The bindings, in the contract's input order. */
  readonly bindings: Readonly<Record<string, string>>;
  /** The unit's lines that instantiate a template. */
  readonly actions: readonly CallSiteAction[];
  /** The invoke line the build would write for the unit (without the code span around it). */
  readonly invoke: string;
  /** Offset just past the unit's heading (its start for the preamble). */
  readonly headingEnd: number;
}

/** Per dist, the bound units of each parsed skill: both library rules ask for the same parent. */
const boundCache = new WeakMap<LintDist, WeakMap<Parent, readonly BoundUnit[]>>();

/**
 * The units of `parent` that bind to an auto-promoted contract, each with one contract (the one
 * with the most matched lines, then the smallest id), in document order. As in the build's bind
 * pass, a unit is a candidate only if its frame verb (propose/frame.ts) is the contract's verb
 * class and it holds a template's constant text; it binds when it passes detection, binding and
 * round trip (bind/call-site.ts). The verb test keeps out a tip or note that merely quotes one of
 * the contract's commands. The build's last check, the type check of the invoke against
 * contracts/index.d.ts, is not repeated: it needs the TypeScript compiler.
 */
export function boundUnits(dist: LintDist, parent: Parent): readonly BoundUnit[] {
  let perParent = boundCache.get(dist);
  if (!perParent) boundCache.set(dist, (perParent = new WeakMap()));
  const cached = perParent.get(parent);
  if (cached) return cached;

  const out: BoundUnit[] = [];
  for (const unit of parent.units) {
    let lines: ActionLine[] | undefined;
    let verb: string | null | undefined;
    let best: BoundUnit | undefined;
    for (const entry of dist.contracts) {
      // The build's cheap pre-test: a template cannot match a unit that lacks its constant text.
      if (!entry.anchors.some((a) => unit.text.includes(a))) continue;
      if (verb === undefined) verb = frameOf(parent, unit, dist.lexicon).verb;
      if (verb !== entry.verb) continue;
      lines ??= actionLines(unit);
      const r = bindUnit(entry.contract, parent, unit, lines);
      if (!r.ok) continue;
      if (best && (best.actions.length > r.actions.length || (best.actions.length === r.actions.length && compareCodeUnits(best.entry.contract.id, entry.contract.id) <= 0))) continue;
      best = {
        unit,
        entry,
        bindings: r.bindings,
        actions: r.actions,
        invoke: formatInvoke(entry.contract.id, r.bindings, entry.contract.input_schema.map((f) => f.name)),
        headingEnd: unit.start + (headingLength(unit) ?? 0),
      };
    }
    if (best) out.push(best);
  }
  perParent.set(parent, out);
  return out;
}
