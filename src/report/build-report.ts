/**
 * The build report as data (report.json) and as markdown (report.md). Pure: the same IR, diagnostics
 * and options give the same report. Timings are wall-clock, so they appear only when asked for
 * (--timings); without them two builds of one library are byte-identical.
 */
import { CALL_SITE_STAGES, type BuildIR, type ModelReplyRecord, type Parent } from '../ir/types.js';
import type { ModelUsage, PassUsage } from '../llm/model-service.js';
import { countBySeverity, DIAGNOSTIC_CODES, type Diagnostic } from '../ir/diagnostics.js';
import type { PassTiming } from '../passes/driver.js';
import type { Pass } from '../passes/pass.js';
import type { RefactorStats } from '../emit/library.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { compareCodeUnits } from '../util/stable-json.js';

export interface ReportOptions {
  /** Options that change the output, recorded as given. */
  readonly buildOptions: Readonly<Record<string, string | number | boolean>>;
  readonly includeTimings: boolean;
  /** Call-site, round-trip and token figures of the refactored library (emit/library.ts). */
  readonly refactor?: RefactorStats | null;
  /** With --llm: the model service's usage counts. */
  readonly llm?: ModelUsage | null;
}

/**
 * Model use per pass (SPEC §3). `requests` and the item outcomes depend only on the library and the
 * replies; `calls`, `cacheHits`, tokens and `attempts` also depend on what the cache held, so they
 * are the only fields of report.json that differ between a first build and a rebuild.
 */
export interface LlmReport {
  readonly provider: 'openai';
  readonly model: string;
  readonly baseURL: string | null;
  readonly attempts: number;
  readonly passes: readonly (PassUsage & { readonly pass: string; readonly items: Readonly<Record<ModelReplyRecord['outcome'], number>> })[];
  /** Every item whose reply was not used as is, with the reason (also a diagnostic). */
  readonly notAccepted: readonly ModelReplyRecord[];
}

export interface Distribution {
  readonly min: number;
  readonly median: number;
  readonly p90: number;
  readonly max: number;
  readonly mean: number;
}

export interface BuildReport {
  readonly schemaVersion: 1;
  readonly tool: { readonly name: string; readonly version: string };
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly library: {
    readonly skillsFound: number;
    readonly parsed: number;
    readonly skipped: number;
    readonly skippedByCode: Readonly<Record<string, number>>;
    readonly skippedSkills: readonly { readonly path: string; readonly code: string; readonly reason: string }[];
    readonly inputFiles: number;
    readonly inputBytes: number;
  };
  readonly parse: {
    readonly units: number;
    readonly preambles: number;
    readonly nonEmptyPreambles: number;
    readonly sections: number;
    readonly sectionsByLevel: Readonly<Record<string, number>>;
    readonly unitsPerParent: Distribution;
    readonly linesPerParent: Distribution;
    readonly codeBlocks: number;
    readonly unclosedCodeBlocks: number;
    readonly links: number;
    readonly bullets: number;
    readonly encodings: Readonly<Record<string, number>>;
    readonly frontmatter: { readonly present: number; readonly absent: number; readonly mapping: number };
    readonly files: { readonly scripts: number; readonly references: number; readonly assets: number };
  };
  /** Per-pass yield (SaP table 8) and first-failed breakdown (SaP table 7). */
  readonly pipeline: {
    readonly units: number;
    readonly unitsWithVerb: number;
    readonly clusters: number;
    readonly multiParentClusters: number;
    readonly unitsInClusters: number;
    readonly largestCluster: number;
    readonly drafts: number;
    readonly extractionFailed: number;
    readonly autoPromote: number;
    readonly review: number;
    readonly reject: number;
    readonly firstFailed: Readonly<Record<string, number>>;
    readonly promotedWithInputsAndTemplate: number;
  } | null;
  /** Passes 5–7: call-sites, round trip, rewritten parents, bundle token counts. */
  readonly refactor: RefactorStats | null;
  /** With --llm: calls, cache hits, tokens and item outcomes per model-assisted pass. */
  readonly llm: LlmReport | null;
  readonly diagnostics: {
    readonly error: number;
    readonly warning: number;
    readonly info: number;
    readonly byCode: readonly { readonly code: string; readonly name: string; readonly severity: string; readonly count: number }[];
    /** Malicious install steps (SKC130), each with its position: the skills a reviewer must look at. */
    readonly flagged: readonly { readonly file: string; readonly line: number; readonly column: number; readonly message: string }[];
  };
  readonly passes: readonly { readonly name: string; readonly version: number; readonly description: string; readonly status: string; readonly ms?: number }[];
}

export function buildReport(ir: BuildIR, diagnostics: readonly Diagnostic[], timings: readonly PassTiming[], passes: readonly Pass[], opts: ReportOptions): BuildReport {
  const parents = ir.parents ?? [];
  const src = ir.source;
  const units = parents.flatMap((p) => p.units);
  const sections = units.filter((u) => u.kind === 'section');
  const byLevel: Record<string, number> = {};
  for (const u of sections) byLevel[`h${u.level}`] = (byLevel[`h${u.level}`] ?? 0) + 1;
  const skippedByCode: Record<string, number> = {};
  for (const s of src.skipped) skippedByCode[s.code] = (skippedByCode[s.code] ?? 0) + 1;
  const encodings: Record<string, number> = {};
  for (const p of parents) encodings[p.encoding] = (encodings[p.encoding] ?? 0) + 1;
  const codeBlocks = units.flatMap((u) => u.codeBlocks);

  const sev = countBySeverity(diagnostics);
  const byCode = new Map<string, { code: string; name: string; severity: string; count: number }>();
  for (const d of diagnostics) {
    const k = `${d.code}/${d.severity}`;
    const e = byCode.get(k) ?? { code: d.code, name: d.name, severity: d.severity, count: 0 };
    e.count++;
    byCode.set(k, e);
  }
  const parsedPaths = new Set(parents.map((p) => p.path));
  const notParsed = src.skills.filter((s) => !parsedPaths.has(s.path)).map((s) => ({ path: s.path, code: DIAGNOSTIC_CODES['internal-error'].code, reason: 'parse failed (see diagnostics)' }));
  const skippedSkills = [...src.skipped, ...notParsed].sort((a, b) => compareCodeUnits(a.path, b.path));
  for (const s of notParsed) skippedByCode[s.code] = (skippedByCode[s.code] ?? 0) + 1;

  return {
    schemaVersion: 1,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    options: opts.buildOptions,
    library: {
      skillsFound: src.skills.length + src.skipped.length,
      parsed: parents.length,
      skipped: skippedSkills.length,
      skippedByCode,
      skippedSkills,
      inputFiles: src.inputs.length,
      inputBytes: src.inputs.reduce((a, f) => a + f.bytes, 0),
    },
    parse: {
      units: units.length,
      preambles: units.length - sections.length,
      nonEmptyPreambles: units.filter((u) => u.kind === 'preamble' && u.text.trim() !== '').length,
      sections: sections.length,
      sectionsByLevel: byLevel,
      unitsPerParent: distribution(parents.map((p) => p.units.length)),
      linesPerParent: distribution(parents.map((p) => p.lines)),
      codeBlocks: codeBlocks.length,
      unclosedCodeBlocks: codeBlocks.filter((c) => !c.closed).length,
      links: units.reduce((a, u) => a + u.links.length, 0),
      bullets: units.reduce((a, u) => a + u.bullets.length, 0),
      encodings,
      frontmatter: {
        present: parents.filter((p) => p.frontmatter.raw !== '').length,
        absent: parents.filter((p) => p.frontmatter.raw === '').length,
        mapping: parents.filter((p) => p.frontmatter.data !== null).length,
      },
      files: countFiles(parents),
    },
    pipeline: pipelineYield(ir),
    refactor: opts.refactor ?? null,
    llm: opts.llm ? llmReport(opts.llm, ir.modelReplies ?? []) : null,
    diagnostics: {
      ...sev,
      byCode: [...byCode.values()].sort((a, b) => compareCodeUnits(a.code, b.code) || compareCodeUnits(a.severity, b.severity)),
      flagged: diagnostics
        .filter((d) => d.name === 'malicious-install')
        .map((d) => ({ file: d.file, line: d.line, column: d.column, message: d.message }))
        .sort((a, b) => compareCodeUnits(a.file, b.file) || a.line - b.line || a.column - b.column),
    },
    passes: passes.map((p) => {
      const t = timings.find((x) => x.pass === p.name);
      return { name: p.name, version: p.version, description: p.description, status: t?.status ?? 'not-run', ...(opts.includeTimings && t ? { ms: Math.round(t.ms) } : {}) };
    }),
  };
}

const MODEL_PASSES = ['extract', 'bind', 'rewrite'] as const;

function llmReport(usage: ModelUsage, records: readonly ModelReplyRecord[]): LlmReport {
  const empty: PassUsage = { requests: 0, cacheHits: 0, calls: 0, promptTokens: 0, completionTokens: 0, failed: 0, invalid: 0 };
  return {
    provider: 'openai',
    model: usage.model,
    baseURL: usage.baseURL,
    attempts: usage.attempts,
    passes: MODEL_PASSES.map((pass) => {
      const items = { accepted: 0, declined: 0, rejected: 0, failed: 0, skipped: 0 };
      for (const r of records) if (r.pass === pass) items[r.outcome]++;
      return { pass, ...(usage.passes[pass] ?? empty), items };
    }),
    notAccepted: records.filter((r) => r.outcome !== 'accepted'),
  };
}

const FIRST_FAILED_ORDER = ['extraction_failed', 'schema_invalid', 'risk', 'form', 'binding', 'coverage', 'replacement', 'score', 'auto_promote', 'review'] as const;

function pipelineYield(ir: BuildIR): BuildReport['pipeline'] {
  if (!ir.clusters || !ir.profiles) return null;
  const profiles = ir.profiles;
  const firstFailed: Record<string, number> = Object.fromEntries(FIRST_FAILED_ORDER.map((k) => [k, 0]));
  for (const p of profiles) firstFailed[p.firstFailed ?? p.decision]!++;
  const promoted = new Set(profiles.filter((p) => p.decision !== 'reject').map((p) => p.cluster));
  const sizes = ir.clusters.map((c) => c.units.length);
  return {
    units: (ir.parents ?? []).reduce((a, p) => a + p.units.length, 0),
    unitsWithVerb: (ir.frames ?? []).filter((f) => f.verb !== null).length,
    clusters: ir.clusters.length,
    multiParentClusters: ir.clusters.filter((c) => c.parents.length > 1).length,
    unitsInClusters: sizes.reduce((a, b) => a + b, 0),
    largestCluster: sizes.length ? Math.max(...sizes) : 0,
    drafts: (ir.contracts ?? []).length,
    extractionFailed: (ir.extractionFailures ?? []).length,
    autoPromote: profiles.filter((p) => p.decision === 'auto_promote').length,
    review: profiles.filter((p) => p.decision === 'review').length,
    reject: profiles.filter((p) => p.decision === 'reject').length,
    firstFailed,
    promotedWithInputsAndTemplate: (ir.contracts ?? []).filter((c) => promoted.has(c.cluster) && c.input_schema.length > 0 && c.templates.length > 0).length,
  };
}

function countFiles(parents: readonly Parent[]): { scripts: number; references: number; assets: number } {
  return {
    scripts: parents.reduce((a, p) => a + p.scripts.length, 0),
    references: parents.reduce((a, p) => a + p.references.length, 0),
    assets: parents.reduce((a, p) => a + p.assets.length, 0),
  };
}

export function distribution(xs: readonly number[]): Distribution {
  if (xs.length === 0) return { min: 0, median: 0, p90: 0, max: 0, mean: 0 };
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]!;
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { min: s[0]!, median: q(0.5), p90: q(0.9), max: s[s.length - 1]!, mean: Math.round(mean * 100) / 100 };
}

export function renderReportMarkdown(r: BuildReport): string {
  const L: string[] = [];
  const lib = r.library;
  const p = r.parse;
  L.push(`# skillc build report`, '');
  L.push(`${r.tool.name} ${r.tool.version}. Options: ${Object.entries(r.options).map(([k, v]) => `\`${k}=${String(v)}\``).join(', ') || 'none'}.`, '');
  L.push('## Library', '');
  L.push('| skills found | parsed | skipped | input files | input bytes |', '|---:|---:|---:|---:|---:|');
  L.push(`| ${lib.skillsFound} | ${lib.parsed} | ${lib.skipped} | ${lib.inputFiles} | ${lib.inputBytes} |`, '');
  if (lib.skippedSkills.length > 0) {
    L.push('Skipped skills:', '');
    for (const s of lib.skippedSkills) L.push(`- \`${s.path}\` (${s.code}): ${s.reason}`);
    L.push('');
  }
  L.push('## Parse', '');
  L.push('| units | preambles (non-empty) | sections | code blocks (unclosed) | links | bullets |', '|---:|---:|---:|---:|---:|---:|');
  L.push(`| ${p.units} | ${p.preambles} (${p.nonEmptyPreambles}) | ${p.sections} | ${p.codeBlocks} (${p.unclosedCodeBlocks}) | ${p.links} | ${p.bullets} |`, '');
  L.push(`Sections by heading level: ${Object.entries(p.sectionsByLevel).sort().map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}.`, '');
  const d = (x: Distribution) => `min ${x.min}, median ${x.median}, p90 ${x.p90}, max ${x.max} (mean ${x.mean})`;
  L.push(`Units per parent: ${d(p.unitsPerParent)}. Lines per parent: ${d(p.linesPerParent)}.`, '');
  L.push(`Frontmatter: ${p.frontmatter.present} present (${p.frontmatter.mapping} parsed to a mapping), ${p.frontmatter.absent} absent. Encodings: ${Object.entries(p.encodings).sort().map(([k, v]) => `${k} ${v}`).join(', ')}.`, '');
  L.push(`Supporting files: ${p.files.scripts} scripts, ${p.files.references} references, ${p.files.assets} assets.`, '');
  const y = r.pipeline;
  if (y) {
    L.push('## Pipeline yield', '');
    L.push('| stage | input | output |', '|---|---:|---|');
    L.push(`| parse | ${lib.parsed} skills | ${y.units} units |`);
    L.push(`| propose | ${y.unitsWithVerb} units with a verb | ${y.clusters} clusters (${y.multiParentClusters} across ≥ 2 parents; ${y.unitsInClusters} units; largest ${y.largestCluster}) |`);
    L.push(`| extract | ${y.clusters} clusters | ${y.drafts} drafts, ${y.extractionFailed} failed |`);
    L.push(`| verify | ${y.clusters} candidates | ${y.autoPromote} auto_promote / ${y.review} review / ${y.reject} reject |`, '');
    L.push('First failed check (rejections) and terminal tiers:', '');
    L.push('| first failed | count |', '|---|---:|');
    for (const [k, v] of Object.entries(y.firstFailed)) L.push(`| ${k} | ${v} |`);
    L.push('');
    L.push(`Promoted contracts with a non-empty input_schema and at least one template: ${y.promotedWithInputsAndTemplate} of ${y.autoPromote + y.review}.`, '');
  }
  const rf = r.refactor;
  if (rf) {
    L.push('## Refactored library', '');
    L.push('| stage | input | output |', '|---|---:|---|');
    L.push(`| bind | ${rf.candidates} candidate call-sites of ${rf.promoted} promoted contracts | ${rf.callSites} call-sites (${rf.byDetection.member} members, ${rf.byDetection.match} matched elsewhere); dropped: ${CALL_SITE_STAGES.map((s) => `${s} ${rf.dropped[s]}`).join(', ')} |`);
    L.push(`| passages | ${rf.passages.found} shared passages (sections in three or more skills; ${rf.passages.copies} byte-identical copies of skills mined once) | ${rf.passages.referenced} referenced, in ${rf.passages.sections} sections |`);
    L.push(`| rewrite | ${rf.callSites} call-sites and ${rf.passages.sections} passage references | ${rf.rewrittenParents} parents rewritten, ${rf.promotedInvoked} contracts and ${rf.passages.referenced} passages invoked, ${rf.cleanups} lines fixed by Rewrite Cleanup |`, '');
    L.push(`Round trip (templates instantiated with a call-site's bindings give back its action lines): ${rf.roundTrip.passed} of ${rf.roundTrip.checked} (${(rf.roundTrip.rate * 100).toFixed(1)}%); failures are dropped.`, '');
    const t = rf.tokens;
    const q = (x: { q1: number; median: number; q3: number }) => `${x.median} (${x.q1}–${x.q3})`;
    L.push(`Tokens per rewritten parent (≈ ${t.tokenizer}; median, interquartile range): original SKILL.md ${q(t.original)}, skeleton ${q(t.skeleton)}, what an agent reads ${q(t.bundle)} (the skill as written).`, '');
    L.push(`What the library stores for the ${t.perParent.length} rewritten skills: skeletons ${t.library.skeletons} + contracts and passages once ${t.library.contracts} = ${t.library.skeletons + t.library.contracts} tokens, against ${t.library.original} as written (${t.library.ratio}).`, '');
    if (t.perParent.length > 0 && t.perParent.length <= 40) {
      L.push('| parent | original | skeleton | bundle |', '|---|---:|---:|---:|');
      for (const x of t.perParent) L.push(`| \`${x.parent}\` | ${x.original} | ${x.skeleton} | ${x.bundle} |`);
      L.push('');
    }
  }
  const m = r.llm;
  if (m) {
    L.push('## Model use', '');
    L.push(`Model \`${m.model}\`${m.baseURL ? ` at ${m.baseURL}` : ''}; ${m.attempts} HTTP attempts (retries included). Calls, cache hits and tokens depend on the reply cache; the rest depends only on the library and the replies.`, '');
    L.push('| pass | requests | cache hits | calls | prompt tokens | completion tokens | accepted | declined | rejected | failed | skipped |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const x of m.passes) L.push(`| ${x.pass} | ${x.requests} | ${x.cacheHits} | ${x.calls} | ${x.promptTokens} | ${x.completionTokens} | ${x.items.accepted} | ${x.items.declined} | ${x.items.rejected} | ${x.items.failed} | ${x.items.skipped} |`);
    L.push('');
    if (m.notAccepted.length > 0) {
      L.push('Items whose reply was not used as is (the first 40; all are in report.json):', '');
      for (const x of m.notAccepted.slice(0, 40)) L.push(`- ${x.pass} \`${x.item}\` (${x.file}:${x.line}): ${x.outcome}, ${x.reason}`);
      L.push('');
    }
  }
  L.push('## Diagnostics', '');
  L.push(`${r.diagnostics.error} errors, ${r.diagnostics.warning} warnings, ${r.diagnostics.info} info. Every diagnostic with its file:line:col is in \`diagnostics.json\`.`, '');
  if (r.diagnostics.byCode.length > 0) {
    L.push('| code | name | severity | count |', '|---|---|---|---:|');
    for (const c of r.diagnostics.byCode) L.push(`| ${c.code} | ${c.name} | ${c.severity} | ${c.count} |`);
    L.push('');
  }
  if (r.diagnostics.flagged.length > 0) {
    const skills = new Set(r.diagnostics.flagged.map((f) => f.file.split('/').slice(0, -1).join('/') || f.file));
    L.push(`### Flagged: malicious install steps in ${skills.size} skill${skills.size === 1 ? '' : 's'}`, '');
    L.push('Copied as written; no contract is drawn from them and `skillc query` marks them (rules/malicious-patterns.json).', '');
    for (const f of r.diagnostics.flagged.slice(0, 100)) L.push(`- \`${f.file}:${f.line}:${f.column}\` ${f.message}`);
    if (r.diagnostics.flagged.length > 100) L.push(`- … and ${r.diagnostics.flagged.length - 100} more in report.json`);
    L.push('');
  }
  L.push('## Passes', '');
  const timed = r.passes.some((x) => x.ms !== undefined);
  L.push(timed ? '| pass | version | status | ms | what it does |' : '| pass | version | status | what it does |', timed ? '|---|---:|---|---:|---|' : '|---|---:|---|---|');
  for (const x of r.passes) L.push(timed ? `| ${x.name} | ${x.version} | ${x.status} | ${x.ms ?? ''} | ${x.description} |` : `| ${x.name} | ${x.version} | ${x.status} | ${x.description} |`);
  L.push('');
  return L.join('\n');
}

