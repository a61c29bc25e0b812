/**
 * Renders the build's artifacts as (path, content) pairs: a pure function of the IR, so the same
 * input gives the same bytes. Each JSON artifact is checked against its schema in schemas/ before
 * it is returned; a mismatch is a skillc bug and throws.
 */
import type { BuildIR, CandidateRecord, Parent, SkillFileRef, Unit } from '../ir/types.js';
import type { Diagnostic } from '../ir/diagnostics.js';
import { jsonArtifact as json, jsonArtifactByItem, type Artifact, type ItemMemo } from './json-artifact.js';
import type { CacheStore } from '../cache/store.js';
import { keptValues } from '../cache/kept.js';
import { cacheKeyOf, parentKey } from '../cache/keys.js';
import type { RenderedLibrary } from './library.js';
import { renderReportMarkdown, type BuildReport } from '../report/build-report.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';

export type { Artifact };

export const PARENTS_SCHEMA_VERSION = 1;

/**
 * parents.json: the parse IR in a form anyone can check for losslessness without skillc. The
 * `parents` list holds the IR's parents; each is mapped by parentJson as it is written.
 */
export function parentsDocument(ir: BuildIR): Readonly<Record<string, unknown>> {
  return {
    schemaVersion: PARENTS_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    parents: ir.parents ?? [],
    skipped: ir.source.skipped,
  };
}

/**
 * What parents.json's bytes depend on: skillc's code (in every key) and each parent's inputs. A
 * parent is its parse of one SKILL.md and that skill's other files, which their paths, modes and
 * hashes identify.
 */
function parentsContentKey(ir: BuildIR): string {
  return cacheKeyOf('parents.json', {
    parents: (ir.parents ?? []).map(parentKey),
    skipped: ir.source.skipped,
  });
}

const PARENT_ITEM_NAMESPACE = 'parents-item';

/**
 * parents.json's elements kept in the build cache, one entry per parent: a rebuild where one skill
 * changed writes the other elements' texts as the last build made them instead of serialising and
 * checking 60 MB again (2 s on the corpora).
 */
export function parentsItemMemo(cache: CacheStore): ItemMemo {
  const texts = keptValues(cache, PARENT_ITEM_NAMESPACE, (v): v is string => typeof v === 'string');
  return {
    keyOf: (item) => parentKey(item as Parent),
    get: (key) => texts.get(key),
    put: (key, text) => texts.put(key, text),
    // An object naming this parent's path and hash (parsing 60 MB back would cost what the memo saves).
    fits: (item, text) => {
      const p = item as Parent;
      return text.startsWith('{') && text.endsWith('}') && text.includes(`"path": ${JSON.stringify(p.path)},`) && text.includes(`"sha256": "${p.sha256}"`);
    },
  };
}

export function parentJson(p: Parent): unknown {
  return {
    path: p.path,
    file: p.file,
    bytes: p.bytes,
    sha256: p.sha256,
    encoding: p.encoding,
    lines: p.lines,
    frontmatter: { raw: p.frontmatter.raw, data: p.frontmatter.data },
    units: p.units.map(unitJson),
    ...(p.bounded ? { bounded: p.bounded } : {}),
    scripts: p.scripts.map(fileJson),
    references: p.references.map(fileJson),
    assets: p.assets.map(fileJson),
  };
}

function unitJson(u: Unit): unknown {
  return {
    id: u.id,
    index: u.index,
    kind: u.kind,
    heading: u.heading,
    headingPath: u.headingPath,
    level: u.level,
    start: u.start,
    end: u.end,
    line: u.line,
    text: u.text,
    codeBlocks: u.codeBlocks,
    inlineCode: u.inlineCode,
    links: u.links,
    bullets: u.bullets,
  };
}

function fileJson(f: SkillFileRef): unknown {
  // File contents stay in the library; parents.json records identity, not a copy.
  return { path: f.path, relPath: f.relPath, kind: f.kind, bytes: f.bytes, sha256: f.sha256, ...(f.symlinkTarget !== undefined ? { symlinkTarget: f.symlinkTarget } : {}) };
}

/** The `format` of manifest.json: what marks a folder as written by skillc build (see output-guard.ts). */
export const DIST_FORMAT = 'skillc-dist';
export const MANIFEST_SCHEMA_VERSION = 2;

/**
 * Every name a build writes at the top of dist/. A folder holding anything else was not (only)
 * written by skillc, so it is never replaced without --force.
 */
export const DIST_ENTRIES: ReadonlySet<string> = new Set(['skills', 'bundles', 'contracts', 'passages', 'passages.json', 'graph.json', 'index', 'refactored_library.json', 'parents.json', 'candidates.json', 'report.json', 'report.md', 'diagnostics.json', 'manifest.json']);

export function manifestDocument(ir: BuildIR, options: Readonly<Record<string, string | number | boolean>>): unknown {
  return { format: DIST_FORMAT, schemaVersion: MANIFEST_SCHEMA_VERSION, tool: { name: TOOL_NAME, version: TOOL_VERSION }, options, inputs: ir.source.inputs };
}

/** candidates.json: every cluster with its profile and decision (and why extraction failed). */
export function candidatesDocument(ir: BuildIR): unknown {
  const failures = new Map((ir.extractionFailures ?? []).map((f) => [f.cluster, f.reason]));
  const profiles = new Map((ir.profiles ?? []).map((p) => [p.cluster, p]));
  const units = new Map((ir.parents ?? []).flatMap((p) => p.units.map((u) => [u.id, { unit: u.id, file: p.file, line: u.line, heading: u.heading }] as const)));
  return {
    schemaVersion: 1,
    policy: ir.policy ?? {},
    candidates: (ir.clusters ?? []).map((c): CandidateRecord => ({
      cluster: c,
      members: c.units.map((id) => units.get(id)!),
      profile: profiles.get(c.id)!,
      ...(failures.has(c.id) ? { extractionFailure: failures.get(c.id) } : {}),
    })),
  };
}

/** contracts/<id>.json for every auto-promoted and review contract, with its verifier profile and call-sites. */
export function contractArtifacts(ir: BuildIR, library?: RenderedLibrary): Artifact[] {
  const profiles = new Map((ir.profiles ?? []).map((p) => [p.cluster, p]));
  return (ir.contracts ?? [])
    .filter((c) => profiles.get(c.cluster)?.decision !== 'reject' && profiles.has(c.cluster))
    .map((c) => {
      const sites = (library?.callSitesByContract.get(c.id) ?? []).map((s) => ({ parent: s.parent, unit: s.unit, file: s.file, line: s.line, detection: s.detection, binder: s.binder, bindings: s.bindings }));
      return json(`contracts/${c.id}.json`, 'contract', { ...c, verifier_stats: profiles.get(c.cluster), call_sites: sites });
    });
}

/** Everything dist/ holds: the refactored library (rendered beforehand, see library.ts) and the build's records. */
/** @param parentsMemo parents.json's element texts of earlier builds (see parentsItemMemo). */
export function renderArtifacts(ir: BuildIR, report: BuildReport, diagnostics: readonly Diagnostic[], library?: RenderedLibrary, parentsMemo?: ItemMemo): Artifact[] {
  return [
    ...(library?.artifacts ?? []),
    jsonArtifactByItem('parents.json', 'parents', parentsDocument(ir), 'parents', { mapItem: (p) => parentJson(p as Parent), contentKey: parentsContentKey(ir), ...(parentsMemo ? { itemMemo: parentsMemo } : {}) }),
    ...(ir.clusters ? [json('candidates.json', 'candidates', candidatesDocument(ir))] : []),
    ...contractArtifacts(ir, library),
    json('report.json', 'report', report),
    { path: 'report.md', content: renderReportMarkdown(report) },
    json('diagnostics.json', 'diagnostics', diagnostics),
    json('manifest.json', 'manifest', manifestDocument(ir, report.options)),
  ];
}

