/**
 * `skillc build <library> -o <dist>`: load the library, run the registered passes, write dist/.
 * Exit codes: 0 the build completed (diagnostics are in the report), 1 --strict and errors exist,
 * 3 a pass failed with an internal error (the dist holds what the passes before it produced),
 * 2 usage error, unreadable library, an output folder skillc refuses or cannot write, or an input
 * changed during the build; 128+n when signal n (SIGINT, SIGTERM, SIGHUP) arrived while the dist
 * was being written (it is then finished first, so the output is whole).
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import pc from 'picocolors';
import { loadLibrary, LibraryUnreadableError, DEFAULT_MAX_SKILL_BYTES } from '../load/load-library.js';
import { runPipeline } from '../passes/driver.js';
import { startTextFacts, TEXT_FACTS_MIN_SKILLS, type PendingTextFacts, type TextFacts } from '../emit/text-facts.js';
import { startTypeScriptWorker, type TypeScriptWorker } from '../typed/ts-worker-host.js';
import { PASSES } from '../passes/registry.js';
import { buildReport } from '../report/build-report.js';
import { parentsItemMemo, renderArtifacts } from '../emit/artifacts.js';
import { parentLayout, renderLibrary } from '../emit/library.js';
import { recoverOutput, writeDist, OutputWriteError, InputChangedError } from '../emit/write-dist.js';
import { prepareDist, type PendingDist } from '../emit/dist-folders.js';
import { checkOutputDir, OutputRefusedError } from '../emit/output-guard.js';
import { escapeInline } from '../text/terminal.js';
import { formatDiagnostics, summariseDiagnostics, type DiagnosticFormat } from '../report/format-diagnostics.js';
import { createProgress } from './progress.js';
import { limitHeapGrowth } from './heap-growth.js';
import { baselineWasmOnly } from './wasm-tier.js';
import { sha256 } from '../util/hash.js';
import { stableStringify } from '../util/stable-json.js';
import { compareDiagnostics, countBySeverity, makeDiagnostic, type Diagnostic, type Severity } from '../ir/diagnostics.js';
import { loadPolicy, PolicyError, type Policy } from '../policy/policy.js';
import { LlmSetupError, modelServiceFrom, type LlmOptions } from '../llm/setup.js';
import type { ModelService } from '../llm/model-service.js';
import { createHash } from 'node:crypto';
import { CacheStore } from '../cache/store.js';
import { MemoTable } from '../cache/memo.js';
import { typeScriptMemoOf } from '../typed/compile-memo.js';
import { isTermCounts } from '../propose/tfidf.js';
import { isSkillIO } from '../graph/artifacts.js';
import { cacheKeyOf, fileIdentity } from '../cache/keys.js';
import { readBuildRecord, reusableFiles, statTree, stillRecorded, treeMatches, writeBuildRecord, type RecordedFile } from '../cache/build-record.js';
import type { Artifact } from '../emit/json-artifact.js';
import type { BuildReport } from '../report/build-report.js';
import type { Parent, SourceLibrary } from '../ir/types.js';
import { embedderFrom, skillEmbeddingText, type Embedder, type EmbeddingOptions } from '../embed/embeddings.js';
import { ModelCallError } from '../llm/model-client.js';
import type { DocumentVectors } from '../graph/query-index.js';

type Colors = ReturnType<typeof pc.createColors>;

export interface BuildCommandOptions {
  readonly out: string;
  readonly strict?: boolean;
  readonly force?: boolean;
  readonly timings?: boolean;
  readonly format?: DiagnosticFormat;
  readonly maxDiagnostics?: number;
  readonly quiet?: boolean;
  readonly verbose?: boolean;
  readonly progress?: boolean;
  /**
   * Once every skill is parsed, cap V8's heap growth for the rest of the process (cli/heap-growth.ts).
   * A process-wide setting, so only the CLI asks for it, not in-process callers.
   */
  readonly limitHeapGrowth?: boolean;
  readonly maxSkillBytes?: number;
  readonly jobs?: number;
  readonly policy?: string;
  /** Model-assisted passes (SPEC §3); default none. */
  readonly llm?: LlmOptions;
  /** Dense vectors of the skills for the query (embed/embeddings.ts); default none. */
  readonly embeddings?: EmbeddingOptions;
  /** The build cache folder (parses, pass results, the last build's record); absent or false: none. */
  readonly cache?: string | false;
}

export interface CommandIO {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
}

/** Below this many folders and files, a worker to make them costs more than it saves. */
const PREPARE_MIN_ENTRIES = 256;

/** A new dist made ahead of the write (emit/dist-folders.ts), and whether writeDist took it over. */
interface NewDist {
  pending?: PendingDist;
  handedOver: boolean;
}

export async function buildCommand(library: string, opts: BuildCommandOptions, io: CommandIO): Promise<number> {
  const newDist: NewDist = { handedOver: false };
  try {
    return await build(library, opts, io, newDist);
  } finally {
    // Handed to writeDist, it is the new output or was removed there; otherwise it goes now.
    if (newDist.pending && !newDist.handedOver) await newDist.pending.discard();
  }
}

async function build(library: string, opts: BuildCommandOptions, io: CommandIO, newDist: NewDist): Promise<number> {
  const t0 = performance.now();
  const err = (s: string) => io.stderr.write(s);
  const color = io.stderr.isTTY === true && !process.env.NO_COLOR;
  const c = color ? pc : pc.createColors(false);
  const fail = (message: string): number => {
    err(`skillc build: ${escapeInline(message)}\n`);
    return 2;
  };
  try {
    checkOutputDir(opts.out, opts.force === true, { library });
  } catch (e) {
    if (e instanceof OutputRefusedError) return fail(e.message);
    throw e;
  }
  // Then what an interrupted build left next to the output (an old dist set aside comes back);
  // the output is checked again before it is replaced.
  for (const line of recoverOutput(opts.out)) err(`skillc build: ${escapeInline(line)}\n`);

  let policy: Policy;
  try {
    policy = loadPolicy(opts.policy);
  } catch (e) {
    if (e instanceof PolicyError) return fail(e.message);
    throw e;
  }

  // The model servers the options name (--llm, --embeddings): a bad URL or a missing key is a usage error.
  let llm: ModelService | undefined;
  let embedder: Embedder | undefined;
  try {
    llm = modelServiceFrom(opts.llm ?? { llm: 'none' });
    embedder = embedderFrom(opts.embeddings ?? { embeddings: 'none' });
  } catch (e) {
    if (e instanceof LlmSetupError) return fail(e.message);
    throw e;
  }

  const cacheDir = opts.cache ? path.resolve(opts.cache) : undefined;
  if (cacheDir && isInside(cacheDir, path.resolve(opts.out))) return fail(`the cache folder ${cacheDir} is inside the output folder ${opts.out}, which each build replaces; put it elsewhere`);

  const progress = createProgress(io.stderr, opts.progress !== false && !opts.quiet);
  let source;
  try {
    source = loadLibrary(library, {
      // The cache is never read as part of the library, wherever it is (it would differ between builds).
      exclude: [path.resolve(opts.out), ...(cacheDir ? [cacheDir] : [])],
      maxSkillBytes: opts.maxSkillBytes ?? DEFAULT_MAX_SKILL_BYTES,
      onProgress: (d, t) => progress.update('load', d, t),
    });
  } catch (e) {
    progress.done();
    if (e instanceof LibraryUnreadableError) return fail(e.message);
    throw e;
  }
  progress.done();
  const tLoaded = performance.now();

  // Only options that change the output are recorded (so the manifest is reproducible).
  const buildOptions: Record<string, string | number | boolean> = { maxSkillBytes: opts.maxSkillBytes ?? DEFAULT_MAX_SKILL_BYTES, policySha256: sha256(stableStringify(policy)) };
  if (llm) Object.assign(buildOptions, { llm: 'openai', model: llm.model });
  if (embedder) Object.assign(buildOptions, { embeddings: 'openai', embeddingsModel: embedder.model });

  const outAbs = path.resolve(opts.out);
  const cache = cacheDir ? new CacheStore(cacheDir) : undefined;
  // The umask decides the mode of every file written without one: a build under another umask is another build.
  const umask = process.umask();
  // The build key hashes skillc's code and every input: only worth it when there is a cache to hold it.
  const buildKey = cache ? cacheKeyOf('build-key', { library: path.resolve(library), options: buildOptions, timings: opts.timings === true, umask, source: sourceIdentity(source) }) : '';
  const record = cache ? readBuildRecord(cache, outAbs) : undefined;
  // Up to date: same code, options and inputs as the build that wrote the output, and the output
  // as it wrote it. With a model the replies may differ from run to run, so the build always runs.
  // So does a build with embeddings: one whose requests failed left a dist without them.
  if (record && !llm && !embedder && record.buildKey === buildKey && treeMatches(outAbs, record)) {
    const shown = filterShown(record.diagnostics, opts);
    printDiagnostics(shown, library, opts, io, color);
    if (!opts.quiet) {
      for (const line of record.summary) err(`${escapeInline(line.replace(/\n$/, ''))}\n`);
      if (opts.timings) err(`timings: load ${Math.round(tLoaded - t0)} ms, up-to-date check ${Math.round(performance.now() - tLoaded)} ms\n`);
      err(`${escapeInline(opts.out)}/ is up to date: no input, option or skillc file changed since the build that wrote it; nothing was written (${((performance.now() - t0) / 1000).toFixed(2)}s)\n`);
    }
    if (record.exitCode !== 0) {
      err(`skillc build: internal error: a pass failed in the build that wrote ${escapeInline(opts.out)}/ (SKC001 in its diagnostics); please report this\n`);
      return record.exitCode;
    }
    return opts.strict && countBySeverity(record.diagnostics).error > 0 ? 1 : 0;
  }

  const jobs = opts.jobs ?? defaultJobs();
  baselineWasmOnly();
  const memo = cache
    ? {
        tokenCounts: MemoTable.load(cache, 'token-counts', (v): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0),
        termCounts: MemoTable.load(cache, 'term-counts', isTermCounts),
        skillIO: MemoTable.load(cache, 'skill-io', isSkillIO),
      }
    : undefined;
  // With nothing kept from an earlier build, rendering's per-skill values are computed in a
  // worker thread while the passes run (emit/text-facts.ts), and TypeScript is loaded in another
  // for verify, bind and emit (typed/ts-worker-host.ts). A rebuild finds most of both in the cache.
  let facts: PendingTextFacts | undefined;
  let typeScript = null as TypeScriptWorker | null;
  let result: Awaited<ReturnType<typeof runPipeline>>;
  try {
    result = await runPipeline({ source, policy }, PASSES, {
      onProgress: (pass, d, t) => {
        progress.update(pass.name, d, t);
        // Once every skill is parsed the build holds the whole library's IR and allocates fast (the
        // cache's copies of the parses first); the parse processes, whose heaps are short-lived, are
        // done and no longer compete with concurrent marking for the cores.
        if (opts.limitHeapGrowth && pass.name === 'parse' && d === t) limitHeapGrowth();
      },
      onPassEnd: (pass, _timing, ir) => {
        progress.done();
        if (pass.name === 'parse' && ir.parents && ir.parents.length >= TEXT_FACTS_MIN_SKILLS && (!memo || memo.tokenCounts.keptCount === 0)) {
          facts = startTextFacts(ir.parents);
          typeScript = startTypeScriptWorker();
        }
      },
    }, jobs, llm, cache);
  } catch (e) {
    facts?.stop();
    typeScript?.stop();
    throw e;
  }
  const tEmit = performance.now();
  let dense: DocumentVectors | null = null;
  if (embedder) {
    const embedded = await embedSkills(embedder, result.ir.parents ?? [], progress);
    if ('problem' in embedded) result = { ...result, diagnostics: [...result.diagnostics, embedded.problem].sort(compareDiagnostics) };
    else dense = embedded;
  }
  // The dist's folders are made in a worker while the library is rendered (emit/dist-folders.ts),
  // and its copies too unless the old output has files to link instead (the build record lists
  // them). Not before: a build stopped while it waits on the network leaves nothing beside the output.
  const layout = parentLayout(result.ir, path.resolve(library));
  if (layout.folders.length + layout.copies.length >= PREPARE_MIN_ENTRIES) newDist.pending = prepareDist(opts.out, layout, record === undefined || !fs.existsSync(outAbs));
  let known: TextFacts | null = null;
  try {
    known = facts ? await facts.result : null;
  } finally {
    facts?.stop();
  }
  let rendered: Awaited<ReturnType<typeof renderLibrary>>;
  try {
    // Emit's declarations are the last TypeScript work; the worker's heap is not kept through the graph and the write.
    rendered = await renderLibrary(result.ir, path.resolve(library), memo ? { ...memo, typeScript: typeScriptMemoOf(cache) } : undefined, { facts: known, dense, afterTypeScript: () => typeScript?.stop() });
  } finally {
    typeScript?.stop();
  }
  if (memo) for (const table of Object.values(memo)) table.save();
  const tRendered = performance.now();
  const report = buildReport(result.ir, result.diagnostics, result.timings, PASSES, { buildOptions, includeTimings: opts.timings === true, refactor: rendered.stats, llm: llm?.usage() ?? null });
  const artifacts = renderArtifacts(result.ir, report, result.diagnostics, rendered, cache ? parentsItemMemo(cache) : undefined);
  // The output may have changed since the first check (another process): check again, right before replacing it.
  try {
    checkOutputDir(opts.out, opts.force === true, { library });
  } catch (e) {
    if (e instanceof OutputRefusedError) return fail(e.message);
    throw e;
  }
  // Files the last build wrote with the same bytes are hard-linked from the old output, not written
  // again. Only artifacts with a candidate in the old output are hashed here; the rest are hashed
  // as they are written.
  const reusable = cache ? reusableFiles(outAbs, record) : new Map<string, RecordedFile>();
  const linkFrom = new Map<string, string>();
  const digests = new Map<string, string>();
  for (const a of artifacts) {
    const old = reusable.get(a.path);
    if (!old || 'symlink' in a || old.wantMode !== wantModeOf(a)) continue;
    // A file written without a mode gets 0o666 less the umask; a kept one must have that mode too.
    if (old.wantMode === null && old.mode !== (0o666 & ~umask)) continue;
    // Content with a key: the same key means the same bytes; another key, new bytes (not produced twice).
    const keyed = 'content' in a && a.contentKey !== undefined;
    if (keyed && a.contentKey !== old.contentKey) continue;
    const sha = keyed ? old.sha256 : 'copyFrom' in a ? a.sha256 : contentDigest(a.content);
    if (sha !== old.sha256) continue;
    linkFrom.set(a.path, path.join(outAbs, ...a.path.split('/')));
    digests.set(a.path, sha);
  }
  const failed = result.timings.filter((t) => t.status === 'failed').map((t) => t.pass);
  const summary = summaryLines(report, result.diagnostics, c);
  // The record is taken while the output's lock is held, once the old output is gone (removing
  // it changes the ctime of files linked from it), so its stats are those of this build's files.
  const takeRecord = () => {
    if (!cache) return;
    const files = recordedFiles(outAbs, artifacts, digests);
    // Kept without colour: an up-to-date rebuild may print them where colour is off.
    const plain = summaryLines(report, result.diagnostics, pc.createColors(false));
    if (files) writeBuildRecord(cache, outAbs, { buildKey, files, diagnostics: result.diagnostics, summary: plain, exitCode: failed.length > 0 ? 3 : 0 });
  };
  const prepared = (await newDist.pending?.finish()) ?? null;
  const signals = deferSignals();
  let tidy: string[];
  try {
    newDist.handedOver = true;
    tidy = writeDist(opts.out, artifacts, { linkFrom, digests, stillSame: (p, from) => stillRecorded(from, reusable.get(p)!), beforeUnlock: takeRecord, prepared });
  } catch (e) {
    await signals.release();
    if (e instanceof OutputWriteError || e instanceof InputChangedError) return fail(`${e.message}; ${opts.out} was left as it was`);
    throw e;
  }
  for (const line of tidy) err(`skillc build: ${escapeInline(line)}\n`);
  const interrupted = await signals.release();
  if (interrupted) {
    err(`skillc build: ${interrupted} received while writing ${escapeInline(opts.out)}; the dist was finished first and is complete\n`);
    return 128 + (os.constants.signals[interrupted] ?? 0);
  }
  const tWritten = performance.now();

  printDiagnostics(filterShown(result.diagnostics, opts), library, opts, io, color);
  if (cache && cache.stats.writeFailures > 0 && !opts.quiet) err(`skillc build: warning: ${cache.stats.writeFailures} entr${cache.stats.writeFailures === 1 ? 'y' : 'ies'} could not be written to the cache ${escapeInline(cache.dir)} (${escapeInline(cache.stats.firstWriteError ?? '')}); the next build will not be faster\n`);
  const secs = ((performance.now() - t0) / 1000).toFixed(2);
  if (!opts.quiet) {
    for (const line of summary) err(line);
    if (opts.timings) err(`timings: load ${Math.round(tLoaded - t0)} ms, ${result.timings.map((t) => `${t.pass} ${Math.round(t.ms)} ms`).join(', ')}, emit ${Math.round(tRendered - tEmit)} ms render + ${Math.round(tWritten - tRendered)} ms write\n`);
    if (cache && opts.timings) err(`cache: ${cache.stats.hits} hits, ${cache.stats.misses} misses (${cache.stats.rejected} refused), ${cache.stats.writes} written; ${linkFrom.size} of ${artifacts.length} output files kept from the last build\n`);
    err(`wrote ${escapeInline(opts.out)}/ (${describeArtifacts(artifacts)}) in ${secs}s\n`);
  }
  // A pass that threw is a skillc bug that cost the build its later passes: never a quiet success.
  if (failed.length > 0) {
    err(`skillc build: internal error: the ${failed.join(', ')} pass${failed.length === 1 ? '' : 'es'} failed (SKC001 in the diagnostics); ${escapeInline(opts.out)} holds what the passes before it produced; please report this\n`);
    return 3;
  }
  const n = countBySeverity(result.diagnostics);
  return opts.strict && n.error > 0 ? 1 : 0;
}

/**
 * The skills' dense vectors (--embeddings), in the parents' order, or when the endpoint failed the
 * SKC700 warning that says why (the dist then has no embeddings).
 */
async function embedSkills(embedder: Embedder, parents: readonly Parent[], progress: ReturnType<typeof createProgress>): Promise<DocumentVectors | { problem: Diagnostic }> {
  progress.update('embeddings', 0, 1);
  try {
    const got = await embedder.embed(parents.map(skillEmbeddingText));
    return { model: embedder.model, dimensions: got.dimensions, vectors: got.vectors };
  } catch (e) {
    if (!(e instanceof ModelCallError)) throw e;
    return { problem: makeDiagnostic('emit', 'model-call-failed', { file: '.', message: `embeddings (${embedder.model}) failed: ${e.message}; the dist has no embeddings, and queries rank by text alone` }) };
  } finally {
    progress.done();
  }
}

/**
 * Holds SIGINT, SIGTERM and SIGHUP while the dist is replaced: the handlers make the default action
 * (die at once) wait, and since the write is synchronous they run only after it. `release` lets a
 * pending signal arrive, removes the handlers and returns the first signal seen, if any.
 */
function deferSignals(): { release(): Promise<NodeJS.Signals | null> } {
  let seen: NodeJS.Signals | null = null;
  const names: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handler = (signal: NodeJS.Signals) => {
    seen ??= signal;
  };
  for (const n of names) process.on(n, handler);
  return {
    async release() {
      // A signal that arrived during the synchronous write waits in libuv's signal pipe, which is
      // read in the poll phase. One setImmediate can run before the next poll (when this code runs
      // in a poll callback); the second one runs after it, so the signal has been seen by then.
      await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
      for (const n of names) process.off(n, handler);
      return seen;
    },
  };
}

/** What the build prints after its diagnostics (kept in the build record, for an up-to-date rebuild). */
function summaryLines(report: BuildReport, diagnostics: readonly Diagnostic[], c: Colors): string[] {
  const out: string[] = [];
  const lib = report.library;
  out.push(`${c.bold('skillc build')}: ${lib.skillsFound} skills found, ${lib.parsed} parsed, ${lib.skipped} skipped; ${report.parse.units} units; ${summariseDiagnostics(diagnostics)}\n`);
  const y = report.pipeline;
  if (y) out.push(`contracts: ${y.clusters} clusters → ${y.drafts} drafts → ${y.autoPromote} auto_promote, ${y.review} review, ${y.reject} reject\n`);
  const rf = report.refactor;
  if (rf) {
    const why = Object.entries(rf.dropped).filter(([, n]) => n > 0).map(([stage, n]) => `${stage} ${n}`).join(', ');
    const tl = rf.tokens.library;
    out.push(`refactor: ${rf.callSites} call-sites and ${rf.passages.sections} passage references in ${rf.rewrittenParents} parents (${rf.candidates - rf.callSites} candidates dropped${why ? `: ${why}` : ''}); the rewritten skills take ${tl.skeletons + tl.contracts} tokens with their contracts and passages, against ${tl.original} as written\n`);
  }
  if (report.llm) {
    const m = report.llm;
    const sum = (f: (x: (typeof m.passes)[number]) => number) => m.passes.reduce((a, x) => a + f(x), 0);
    out.push(`model ${m.model}: ${m.passes.map((x) => `${x.pass} ${x.requests}`).join(', ')} requests (${sum((x) => x.cacheHits)} cached, ${sum((x) => x.calls)} calls, ${sum((x) => x.promptTokens + x.completionTokens)} tokens); items ${sum((x) => x.items.accepted)} accepted, ${sum((x) => x.items.declined)} declined, ${sum((x) => x.items.rejected)} rejected, ${sum((x) => x.items.failed)} failed, ${sum((x) => x.items.skipped)} skipped\n`);
  }
  return out;
}

function printDiagnostics(shown: readonly Diagnostic[], library: string, opts: BuildCommandOptions, io: CommandIO, color: boolean): void {
  const format = opts.format ?? 'stylish';
  if (format === 'json') {
    io.stdout.write(formatDiagnostics(shown, 'json'));
  } else {
    const prefix = library.endsWith('/') ? library : library + '/';
    io.stderr.write(formatDiagnostics(shown, 'stylish', { color, limit: opts.maxDiagnostics ?? 50, pathPrefix: prefix === './' ? '' : prefix }));
  }
}

/**
 * The loaded library as the build key sees it: every input's path, size and hash, each skill's
 * files and modes, and what loading reported. File contents are covered by their hashes.
 */
function sourceIdentity(source: SourceLibrary): unknown {
  return {
    inputs: source.inputs,
    skills: source.skills.map((s) => ({ path: s.path, file: s.file, mode: s.mode ?? null, files: s.files.map(fileIdentity) })),
    diagnostics: source.diagnostics,
    skipped: source.skipped,
  };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function wantModeOf(a: Artifact): number | null {
  return 'symlink' in a || a.mode === undefined ? null : a.mode & 0o777;
}

function contentDigest(content: string | Uint8Array | Iterable<string>): string {
  const hash = createHash('sha256');
  if (typeof content === 'string' || content instanceof Uint8Array) hash.update(content);
  else for (const piece of content) hash.update(piece);
  return hash.digest('hex');
}

/** The written output as the build record keeps it, or null when it is not exactly the artifacts. */
function recordedFiles(outAbs: string, artifacts: readonly Artifact[], digests: ReadonlyMap<string, string>): RecordedFile[] | null {
  const tree = statTree(outAbs);
  if (!tree || tree.size !== artifacts.length) return null;
  const files: RecordedFile[] = [];
  for (const a of artifacts) {
    const st = tree.get(a.path);
    const type = 'symlink' in a ? 'link' : 'file';
    const sha = 'symlink' in a ? a.symlink : 'copyFrom' in a ? a.sha256 : digests.get(a.path);
    if (!st || st.type !== type || sha === undefined) return null;
    files.push({ path: a.path, type, sha256: sha, ...('content' in a && a.contentKey !== undefined ? { contentKey: a.contentKey } : {}), wantMode: wantModeOf(a), size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode });
  }
  return files;
}

/** "skills/ (12 files), bundles/ (4 files), report.json, …": top-level files by name, folders by count. */
function describeArtifacts(artifacts: readonly { path: string }[]): string {
  const folders = new Map<string, number>();
  const files: string[] = [];
  for (const a of artifacts) {
    const slash = a.path.indexOf('/');
    if (slash < 0) files.push(a.path);
    else folders.set(a.path.slice(0, slash), (folders.get(a.path.slice(0, slash)) ?? 0) + 1);
  }
  return [...[...folders].map(([f, n]) => `${f}/ (${n} file${n === 1 ? '' : 's'})`), ...files].join(', ');
}

function filterShown(diags: readonly Diagnostic[], opts: BuildCommandOptions): Diagnostic[] {
  const keep: Set<Severity> = opts.quiet ? new Set(['error']) : opts.verbose ? new Set(['error', 'warning', 'info']) : new Set(['error', 'warning']);
  return diags.filter((d) => keep.has(d.severity));
}

/** All cores, at most 8: parsing scales with cores, and the result is the same for any count. */
export function defaultJobs(): number {
  return Math.max(1, Math.min(8, os.availableParallelism()));
}
