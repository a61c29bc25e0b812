/**
 * The refactored library as artifacts (SPEC §6): every parent's folder under skills/ (the rewritten
 * SKILL.md or the original copied byte for byte, every other file copied byte for byte, and for a
 * rewritten parent the file that keeps the original text of its rewritten sections), the bundles,
 * contracts/<id>.md, contracts/index.d.ts and refactored_library.json. Also measures what the
 * report needs: call-site yield, the round-trip rate and BPE token counts per rewritten parent.
 * Pure apart from loading ts-morph and the tokenizer: same IR, same bytes.
 */
import path from 'node:path';
import { CALL_SITE_STAGES, type BuildIR, type CallSite, type CallSiteStage, type Parent, type Passage, type RewrittenParent } from '../ir/types.js';
import { renderContractMarkdown } from './contract-md.js';
import { contractText } from '../rewrite/contract-text.js';
import { passageText } from '../rewrite/plan.js';
import { render } from '../passages/detect.js';
import { loadTokenCounter, TOKENIZER } from '../text/bpe.js';
import { parentText } from '../rewrite/splice.js';
import { groupBy } from '../util/group-by.js';
import { roundTo } from '../util/round.js';
import { unitIndex } from '../passes/extract.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { jsonArtifact, type Artifact } from './json-artifact.js';
import { CORE_FILE, EMBEDDINGS_FILE, encodeQueryIndex, NODES_FILE, POSTINGS_FILE, type DocumentVectors } from '../graph/query-index.js';
import { buildGraph, type ParentHydration } from '../graph/build-graph.js';
import type { MemoTable } from '../cache/memo.js';
import type { TypeScriptMemo } from '../typed/compile-memo.js';
import type { TextFacts } from './text-facts.js';
import { sha256 } from '../util/hash.js';
import { indexTermCounts, type TermCounts } from '../propose/tfidf.js';
import { loadArtifactLexicon, skillIO, skillIOInput, type SkillIO } from '../graph/artifacts.js';

export interface Quartiles {
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
}

export interface ParentTokens {
  readonly parent: string;
  readonly original: number;
  readonly skeleton: number;
  readonly bundle: number;
}

export interface RefactorStats {
  readonly promoted: number;
  readonly promotedInvoked: number;
  readonly candidates: number;
  readonly callSites: number;
  readonly byDetection: { readonly member: number; readonly match: number };
  readonly dropped: Readonly<Record<CallSiteStage, number>>;
  readonly roundTrip: { readonly checked: number; readonly passed: number; readonly rate: number };
  readonly rewrittenParents: number;
  /**
   * Shared passages (passages pass): how many were found, how many the skeletons reference and in
   * how many sections; and the byte-identical copies, mined once.
   */
  readonly passages: { readonly found: number; readonly referenced: number; readonly sections: number; readonly copies: number };
  readonly cleanups: number;
  readonly tokens: {
    readonly tokenizer: string;
    readonly original: Quartiles;
    readonly bundle: Quartiles;
    readonly skeleton: Quartiles;
    /** bundle / original per parent. */
    readonly ratio: Quartiles;
    readonly bundleSmaller: number;
    /** What the library stores for the rewritten skills against the skills as written. */
    readonly library: { readonly original: number; readonly skeletons: number; readonly contracts: number; readonly ratio: number };
    readonly perParent: readonly ParentTokens[];
  };
}

export interface RenderedLibrary {
  readonly artifacts: Artifact[];
  readonly stats: RefactorStats | null;
  /** Contract id → call-sites (for contracts/<id>.json). */
  readonly callSitesByContract: ReadonlyMap<string, readonly CallSite[]>;
}

export function skillDir(parentPath: string): string {
  return parentPath === '.' ? 'skills' : `skills/${parentPath}`;
}

export function bundlePath(parentPath: string): string {
  return parentPath === '.' ? 'bundles/_root.md' : `bundles/${parentPath}.md`;
}

/**
 * A skill's files that the dist holds as they are in the library: its SKILL.md unless rewritten,
 * its scripts, references and assets (links as links).
 */
function copiedFiles(p: Parent, rewritten: boolean, libraryRoot: string): Artifact[] {
  const dir = skillDir(p.path);
  const out: Artifact[] = [];
  if (!rewritten) out.push({ path: `${dir}/SKILL.md`, copyFrom: path.join(libraryRoot, ...p.file.split('/')), sha256: p.sha256, ...(p.mode !== undefined ? { mode: p.mode } : {}) });
  for (const f of [...p.scripts, ...p.references, ...p.assets]) {
    const target = `${dir}/${f.relPath}`;
    if (f.symlinkTarget !== undefined) out.push({ path: target, symlink: f.symlinkTarget });
    else out.push({ path: target, copyFrom: path.join(libraryRoot, ...f.path.split('/')), sha256: f.sha256, ...(f.mode !== undefined ? { mode: f.mode } : {}) });
  }
  return out;
}

/** What renderLibrary writes for the skills that is known before it runs (emit/dist-folders.ts). */
export interface ParentLayout {
  /** The folders of the skills' files (skills/…, bundles/…), each after its ancestors. */
  readonly folders: string[];
  /** The files copied as they are from the library, as renderLibrary gives them. */
  readonly copies: CopiedFile[];
}

export type CopiedFile = Extract<Artifact, { copyFrom: string }>;

/**
 * The skills' folders and copied files, as renderLibrary will give them: what a new dist can be
 * given before rendering ends (emit/dist-folders.ts). The write checks each copy against the
 * artifact of its path, makes any folder missing here and removes any made for nothing.
 */
export function parentLayout(ir: BuildIR, libraryRoot: string): ParentLayout {
  const rewrites = new Map((ir.rewrites ?? []).map((r) => [r.parent, r]));
  const folders = new Set<string>();
  const copies: CopiedFile[] = [];
  const add = (file: string) => {
    for (let dir = path.posix.dirname(file); dir !== '.' && !folders.has(dir); dir = path.posix.dirname(dir)) folders.add(dir);
  };
  for (const p of ir.parents ?? []) {
    const dir = skillDir(p.path);
    add(`${dir}/SKILL.md`);
    const rw = rewrites.get(p.path);
    if (rw) {
      add(`${dir}/${rw.replacedFile}`);
      add(bundlePath(p.path));
    }
    for (const a of copiedFiles(p, rw !== undefined, libraryRoot)) {
      add(a.path);
      if ('copyFrom' in a) copies.push(a);
    }
  }
  return { folders: [...folders].sort(), copies };
}

/** Texts shorter than this are counted directly, not looked up: hashing them would cost about as much. */
const MEMO_MIN_CHARS = 512;

/** `f` through a memo table keyed by the SHA-256 of the text, for texts long enough to be worth the hash. */
function byText<V>(table: MemoTable<V>, f: (text: string) => V): (text: string) => V {
  return (text) => (text.length < MEMO_MIN_CHARS ? f(text) : table.through(sha256(text), () => f(text)));
}

/** Values of earlier builds kept in the build cache, each by the SHA-256 of its exact input. */
export interface RenderMemo {
  /** o200k counts of texts: counting every skill's text is most of what rendering costs when little changed. */
  readonly tokenCounts: MemoTable<number>;
  /** Content-token counts of the graph's field texts (bodies above all). */
  readonly termCounts: MemoTable<TermCounts>;
  /** Each skill's artifact mentions (graph/artifacts.ts), by skillIOInput. */
  readonly skillIO: MemoTable<SkillIO>;
  /** contracts/index.d.ts, whose rendering loads TypeScript. */
  readonly typeScript?: TypeScriptMemo;
}

/** What rendering may be given besides the IR and the memo. */
export interface RenderOptions {
  /** Per-skill values computed while the passes ran (text-facts.ts), for these parents. */
  readonly facts?: TextFacts | null;
  /** The skills' dense vectors (`--embeddings`), in the parents' order. */
  readonly dense?: DocumentVectors | null;
  /**
   * Called once rendering needs TypeScript no more (contracts/index.d.ts is rendered first), so a
   * TypeScript worker's heap (about 70 MB) is not held while the graph is built.
   */
  readonly afterTypeScript?: () => void;
}

/** @param memo values of earlier builds (the build cache); without it everything is computed. */
export async function renderLibrary(ir: BuildIR, libraryRoot: string, memo?: RenderMemo, options: RenderOptions = {}): Promise<RenderedLibrary> {
  const { facts, dense } = options;
  const parents = ir.parents ?? [];
  const profiles = new Map((ir.profiles ?? []).map((p) => [p.cluster, p]));
  const shown = (ir.contracts ?? []).filter((c) => profiles.has(c.cluster) && profiles.get(c.cluster)!.decision !== 'reject');
  const promoted = shown.filter((c) => profiles.get(c.cluster)!.decision === 'auto_promote');
  let declarations: string | undefined;
  if (ir.callSites && ir.profiles && promoted.length > 0) {
    const { renderDeclarations } = await import('../typed/declarations.js');
    declarations = await renderDeclarations(promoted, memo?.typeScript?.declarations);
  }
  options.afterTypeScript?.();
  const known = facts && facts.parents === parents ? facts : undefined;
  const artifacts: Artifact[] = [];
  const rewrites = new Map((ir.rewrites ?? []).map((r) => [r.parent, r]));
  const callSites = ir.callSites ?? [];
  const sitesByParent = groupBy(callSites, (c) => c.parent);
  const callSitesByContract = groupBy(callSites, (c) => c.contract);
  const counter = await loadTokenCounter();
  const count = memo ? byText(memo.tokenCounts, counter) : counter;
  // A skill's own text: its count is known when the facts are (and kept in the memo like any other).
  const countOriginal = (i: number, text: string): number => {
    if (!known) return count(text);
    const value = known.tokens[i]!;
    return memo ? byText(memo.tokenCounts, () => value)(text) : value;
  };
  const perParent: ParentTokens[] = [];
  const hydration = new Map<string, ParentHydration>();
  const parentEntries: unknown[] = [];

  for (const [i, p] of parents.entries()) {
    const dir = skillDir(p.path);
    const rw = rewrites.get(p.path);
    if (rw) {
      const sites = sitesByParent.get(p.path) ?? [];
      // What an agent reads is the skill as written: every line of it, and nothing added. The
      // skeleton with invokes and the contracts stated once is what the library stores; read with
      // each invoke's concrete actions beside it, as every line must be, it would only add tokens.
      const bundle = parentText(p);
      artifacts.push({ path: `${dir}/SKILL.md`, content: withBom(p, rw.text), ...(p.mode !== undefined ? { mode: p.mode } : {}) });
      artifacts.push({ path: `${dir}/${rw.replacedFile}`, content: renderReplaced(p, rw, sites) });
      artifacts.push({ path: bundlePath(p.path), content: bundle });
      // The bundle is the original text itself: counted once.
      const original = countOriginal(i, bundle);
      const tokens = { parent: p.path, original, skeleton: count(rw.text), bundle: original };
      perParent.push(tokens);
      hydration.set(p.path, { bundle: bundlePath(p.path), source: `${dir}/SKILL.md`, tokens: tokens.bundle });
      parentEntries.push({
        path: p.path,
        file: p.file,
        skill: `${dir}/SKILL.md`,
        replaced: `${dir}/${rw.replacedFile}`,
        bundle: bundlePath(p.path),
        call_sites: rw.callSites,
        passages: rw.passages,
        cleaned_units: rw.cleanedUnits,
        tokens: { original: tokens.original, skeleton: tokens.skeleton, bundle: tokens.bundle },
      });
    } else {
      // Nothing was rewritten: the skill itself is what an agent reads.
      hydration.set(p.path, { bundle: `${dir}/SKILL.md`, source: `${dir}/SKILL.md`, tokens: countOriginal(i, parentText(p)) });
    }
    artifacts.push(...copiedFiles(p, rw !== undefined, libraryRoot));
  }

  const position = known ? new Map(known.parents.map((p, i) => [p, i])) : undefined;
  const computeIO = (p: Parent) => (position ? known!.io[position.get(p)!]! : skillIO(p, loadArtifactLexicon()));
  const countBody = (p: Parent, body: string) => (position ? known!.bodyCounts[position.get(p)!]! : indexTermCounts(body));
  const graph = buildGraph(
    ir,
    hydration,
    memo
      ? {
          termCounts: byText(memo.termCounts, indexTermCounts),
          bodyCounts: (p, body) => byText(memo.termCounts, () => countBody(p, body))(body),
          skillIO: (p) => memo.skillIO.through(sha256(skillIOInput(p)), () => computeIO(p)),
        }
      : { termCounts: indexTermCounts, bodyCounts: countBody, skillIO: computeIO },
    // Computed from the facts' body counts, which are the ones the graph reads when the facts are known.
    known?.bodyModel,
  );
  artifacts.push(jsonArtifact('graph.json', 'graph', graph, 0));
  // The same graph encoded for a query's cold start: what every query reads, and the rest by byte range.
  // Dense vectors (--embeddings) are one row per skill in the parents' order, which is the lexicon's.
  const index = encodeQueryIndex(graph, dense);
  artifacts.push(jsonArtifact(CORE_FILE, 'query-index', index.core, 0), { path: NODES_FILE, content: index.nodes }, { path: POSTINGS_FILE, content: index.postings });
  if (index.embeddings) artifacts.push({ path: EMBEDDINGS_FILE, content: index.embeddings });
  if (ir.passages) artifacts.push(...passageArtifacts(ir, count));
  if (!ir.callSites || !ir.profiles) return { artifacts, stats: null, callSitesByContract };

  const { functionNameOf, functionNames } = await import('../typed/identifiers.js');
  const names = functionNames(promoted.map((c) => c.id));
  // A review contract is not declared in index.d.ts; its signature still needs an identifier (its id has hyphens).
  for (const c of shown) artifacts.push({ path: `contracts/${c.id}.md`, content: renderContractMarkdown(c, profiles.get(c.cluster), callSitesByContract.get(c.id) ?? [], names.get(c.id) ?? functionNameOf(c.id)) });
  if (declarations !== undefined) artifacts.push({ path: 'contracts/index.d.ts', content: declarations });

  const dropped = ir.droppedCallSites ?? [];
  const droppedBy = Object.fromEntries(CALL_SITE_STAGES.map((s) => [s, 0])) as Record<CallSiteStage, number>;
  for (const d of dropped) droppedBy[d.stage]++;
  // Every call-site dropped after binding (type check, rewrite plan, rewrite) passed the round trip.
  const passed = callSites.length + droppedBy['type-check'] + droppedBy['never-rewrite'] + droppedBy.faithful + droppedBy.pay + droppedBy.rewrite;
  const checked = passed + droppedBy['round-trip'];
  const invokedContracts = [...callSitesByContract.keys()].sort().map((id) => promoted.find((c) => c.id === id)).filter((c) => c !== undefined);
  const library = {
    original: perParent.reduce((a, t) => a + t.original, 0),
    skeletons: perParent.reduce((a, t) => a + t.skeleton, 0),
    // Contracts and shared passages, each stated once.
    contracts: invokedContracts.reduce((a, c) => a + count(contractText(c)), 0) + referencedPassages(ir).reduce((a, p) => a + count(passageText(p)), 0),
  };
  const stats: RefactorStats = {
    promoted: promoted.length,
    promotedInvoked: callSitesByContract.size,
    candidates: callSites.length + dropped.length,
    callSites: callSites.length,
    byDetection: { member: callSites.filter((c) => c.detection === 'member').length, match: callSites.filter((c) => c.detection === 'match').length },
    dropped: droppedBy,
    roundTrip: { checked, passed, rate: checked === 0 ? 1 : roundTo(passed / checked, 4) },
    rewrittenParents: perParent.length,
    passages: { found: (ir.passages ?? []).length, referenced: referencedPassages(ir).length, sections: (ir.passageUse ?? []).filter((u) => u.referenced).length, copies: (ir.copies ?? []).length },
    cleanups: (ir.rewrites ?? []).reduce((a, r) => a + r.cleanups.length, 0),
    tokens: {
      tokenizer: TOKENIZER,
      original: quartiles(perParent.map((t) => t.original)),
      bundle: quartiles(perParent.map((t) => t.bundle)),
      skeleton: quartiles(perParent.map((t) => t.skeleton)),
      ratio: quartiles(perParent.map((t) => (t.original === 0 ? 1 : t.bundle / t.original))),
      bundleSmaller: perParent.filter((t) => t.bundle < t.original).length,
      library: { ...library, ratio: library.original === 0 ? 1 : roundTo((library.skeletons + library.contracts) / library.original, 4) },
      perParent,
    },
  };

  const units = unitIndex(parents);
  const { perParent: _perParent, ...tokenSummary } = stats.tokens;
  artifacts.push(
    jsonArtifact('refactored_library.json', 'refactored-library', {
      schemaVersion: 1,
      tool: { name: TOOL_NAME, version: TOOL_VERSION },
      children: promoted.map((c) => ({ id: c.id, trigger: c.trigger, contract: `contracts/${c.id}.json`, source_parents: c.source_parents, call_sites: (callSitesByContract.get(c.id) ?? []).length })),
      parents: parentEntries,
      call_sites: callSites.map((cs) => {
        const { unit, parent } = units.get(cs.unit)!;
        const replaced = cs.replaced ?? { start: unit.start, end: unit.end, line: unit.line };
        return { ...cs, original_unit_text: unit.text, replaced: { ...replaced, text: parentText(parent).slice(replaced.start, replaced.end) } };
      }),
      dropped_call_sites: dropped,
      cleanups: (ir.rewrites ?? []).flatMap((r) => r.cleanups),
      stats: { ...stats, tokens: tokenSummary },
    }),
  );
  return { artifacts, stats, callSitesByContract };
}

/** The original text of every rewritten or cleaned section, verbatim between comment markers. */
function renderReplaced(p: Parent, rw: RewrittenParent, sites: readonly CallSite[]): string {
  const byUnit = new Map(sites.map((s) => [s.unit, s]));
  const shared = new Map(rw.passages.map((x) => [x.unit, x.passage]));
  const cleaned = new Set(rw.cleanedUnits);
  const L: string[] = [`<!-- skillc: the original text of the sections of SKILL.md that were rewritten, each verbatim between its markers. -->`, ''];
  for (const u of p.units) {
    const cs = byUnit.get(u.id);
    const passage = shared.get(u.id);
    if (!cs && !passage && !cleaned.has(u.id)) continue;
    const what = cs ? `replaced by ${cs.invoke}` : passage ? `body replaced by a reference to the shared passage ${passage}` : 'lines rewritten by cleanup';
    L.push(`<!-- skillc:begin ${u.id} (SKILL.md line ${u.line}): ${what.replace(/--/g, '- -')} -->`, u.text + (u.text.endsWith('\n') ? '' : '\n') + `<!-- skillc:end ${u.id} -->`, '');
  }
  return L.join('\n');
}

function withBom(p: Parent, text: string): string {
  return p.encoding === 'utf-8-bom' ? '\uFEFF' + text : text;
}

export function quartiles(xs: readonly number[]): Quartiles {
  if (xs.length === 0) return { q1: 0, median: 0, q3: 0 };
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => {
    const i = p * (s.length - 1);
    const lo = Math.floor(i);
    const hi = Math.ceil(i);
    return roundTo(s[lo]! + (s[hi]! - s[lo]!) * (i - lo), 4);
  };
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
}


/**
 * passages.json (every shared passage, each member with whether its skeleton references it and
 * why) and passages/<id>.md for each passage some skeleton references: its text stated once.
 */
function passageArtifacts(ir: BuildIR, count: (text: string) => number): Artifact[] {
  const use = new Map((ir.passageUse ?? []).map((u) => [`${u.passage}\u0000${u.unit}`, u]));
  const passages = (ir.passages ?? []).map((p) => ({
    id: p.id,
    heading: p.heading,
    text: p.text,
    slots: p.slots,
    tokens: count(passageText(p)),
    members: p.members.map((m) => {
      const u = use.get(`${p.id}\u0000${m.unit}`);
      return { parent: m.parent, unit: m.unit, file: m.file, line: m.line, start: m.start, end: m.end, bindings: m.bindings, referenced: u?.referenced ?? false, reason: u?.reason ?? 'the rewrite pass did not run' };
    }),
  }));
  const out: Artifact[] = [jsonArtifact('passages.json', 'passages', { schemaVersion: 1, tool: { name: TOOL_NAME, version: TOOL_VERSION }, copies: ir.copies ?? [], passages })];
  for (const p of passages) {
    const users = p.members.filter((m) => m.referenced);
    if (users.length === 0) continue;
    // A passage without slots reads as the text itself; one with slots as its template.
    const slots = p.slots.length ? `Slots: ${p.slots.map((s) => `\`{${s}}\``).join(', ')} (in the text below, doubled braces are literal braces).\n\n` : '';
    const body = p.slots.length ? p.text : render(p.text, [], {});
    out.push({ path: `passages/${p.id}.md`, content: `# ${p.id}\n\nShared passage under the heading "${p.heading}", referenced by ${users.length} skill${users.length === 1 ? '' : 's'} as \`invoke(${p.id}, {…})\`.\n\n${slots}---\n\n${body}\n` });
  }
  return out;
}

function referencedPassages(ir: BuildIR): Passage[] {
  const used = new Set((ir.passageUse ?? []).filter((u) => u.referenced).map((u) => u.passage));
  return (ir.passages ?? []).filter((p) => used.has(p.id));
}
