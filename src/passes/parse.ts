/**
 * Pass 1, parse (SPEC §2.1): each SKILL.md becomes a Parent: decoded text, frontmatter split and
 * parsed leniently, the body parsed as remark (frontmatter + GFM) parses it (by markdown-it's fast
 * path where that gives the same result, text/fast-markdown.ts) and cut into procedural units
 * with their code blocks, inline code, links and bullets; the skill's other files sorted into
 * scripts, references and assets. Nothing is truncated, and every problem is a diagnostic with a
 * file:line:col. A skill whose parse throws is reported (SKC001) and left out; the rest go on.
 */
import { describeFinding, scanMalicious } from '../risk/malicious.js';
import type { MaliciousMark, Parent, SourceSkill } from '../ir/types.js';
import { makeDiagnostic, type Diagnostic } from '../ir/diagnostics.js';
import { decodeUtf8 } from '../text/decode.js';
import { sha256 } from '../util/hash.js';
import { LineIndex } from '../text/line-index.js';
import { splitFrontmatter, type SplitFrontmatter } from '../text/frontmatter.js';
import { unclosedFenceEffect, unitsOfBody } from '../text/markdown.js';
import type { Pass } from './pass.js';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mapInWorkers } from '../util/worker-pool.js';
import type { CacheStore } from '../cache/store.js';
import { cacheKeyOf, fileIdentity } from '../cache/keys.js';
import { decodeValue, encodeValue } from '../cache/codec.js';
import type { BodyKey } from '../passages/detect.js';

const NAME = 'parse';
/** Above this a SKILL.md is reported as large (agents read a skill whole; 500 lines is the spec's advice). */
export const LARGE_SKILL_BYTES = 1024 * 1024;

/** Below this many skills, starting parse processes costs more than it saves. */
const PARALLEL_MIN_SKILLS = 64;
/**
 * The parse runs in child processes with two V8 flags, both about the second core:
 * - `--single-threaded-gc`: parsing allocates fast, and on two cores the background collectors of
 *   two parsing heaps competed with the parsing itself (util/worker-pool.ts).
 * - `--interrupt-budget` at 2 MiB (Node 20's V8 default is 66 KiB): a parse process lives for seconds and
 *   JIT-compiles the parser for itself, so each process repeated the same TurboFan work. With the
 *   default budget that work was about a third of the processes' CPU: functions were optimised
 *   early on little type feedback, deoptimised and optimised again (fast-markdown's `split` ten
 *   times, at about 0.3 s each), on compiler threads that took the core the other process parsed
 *   on. A larger budget optimises only what stays hot, on better feedback. The parse of the corpora
 *   in two processes took 8.6 s against 13.2 s (BENCHMARKS.md, issue 22); 1 and 3 MiB did less
 *   well. The main process keeps V8's default: its passes ran slower with the larger budget.
 * Flags change how fast the code runs, never what it computes.
 */
export const PARSE_PROCESS_FLAGS: readonly string[] = ['--single-threaded-gc', '--interrupt-budget=2097152'];

export interface ParseResult {
  readonly parent: Parent | null;
  readonly diagnostics: Diagnostic[];
  /** The parent's section-body keys, from a parse process (parse-worker.ts); not part of what is cached. */
  readonly sectionKeys?: readonly BodyKey[];
}

/** Parses one skill; never throws (a failure is an SKC001 diagnostic and no parent). */
export function parseOne(skill: SourceSkill): ParseResult {
  const diagnostics: Diagnostic[] = [];
  try {
    return { parent: parseSkill(skill, diagnostics), diagnostics };
  } catch (err) {
    return { parent: null, diagnostics: [makeDiagnostic(NAME, 'internal-error', { file: skill.file, message: `parse failed, skill left out: ${err instanceof Error ? err.message : String(err)}` })] };
  }
}

const workerUrl = new URL('./parse-worker.js', import.meta.url);

export const parsePass: Pass = {
  name: NAME,
  description: 'frontmatter, markdown units, code blocks, links and bullets for every SKILL.md',
  version: 1,
  requires: ['source'],
  provides: ['parents', 'sectionKeys'],
  async run(ir, ctx) {
    const skills = ir.source.skills;
    // With a cache, only the skills whose inputs changed since a build that used it are parsed.
    const keys = ctx.cache ? skills.map(parseCacheKey) : null;
    const results: (ParseResult | undefined)[] = keys ? keys.map((k, i) => cachedParse(ctx.cache!, k, skills[i]!)) : skills.map(() => undefined);
    const todo = skills.flatMap((s, i) => (results[i] === undefined ? [i] : []));
    const hits = skills.length - todo.length;
    if (hits > 0) ctx.progress(hits, skills.length);
    const parsed = await parseAll(todo.map((i) => skills[i]!), ctx.jobs, (done) => ctx.progress(hits + done, skills.length));
    todo.forEach((i, k) => {
      results[i] = parsed[k]!;
      if (keys) ctx.cache!.put(PARSE_NAMESPACE, keys[i]!, encodeValue({ parent: parsed[k]!.parent, diagnostics: parsed[k]!.diagnostics }));
    });
    const parents: Parent[] = [];
    const sectionKeys: (readonly BodyKey[] | null)[] = [];
    for (const r of results as ParseResult[]) {
      if (r.parent) {
        parents.push(r.parent);
        sectionKeys.push(r.sectionKeys ?? null);
      }
      r.diagnostics.forEach((d) => ctx.report(d));
    }
    return { parents, sectionKeys };
  },
};

async function parseAll(skills: readonly SourceSkill[], jobs: number, progress: (done: number) => void): Promise<ParseResult[]> {
  // Workers need the compiled worker module; from TypeScript sources (tests) parse in-process.
  if (jobs > 1 && skills.length >= PARALLEL_MIN_SKILLS && fs.existsSync(fileURLToPath(workerUrl))) {
    return mapInWorkers<SourceSkill, ParseResult>(workerUrl, skills, { jobs, processFlags: PARSE_PROCESS_FLAGS, onProgress: (done) => progress(done) });
  }
  return skills.map((skill, i) => {
    const r = parseOne(skill);
    progress(i + 1);
    return r;
  });
}

const PARSE_NAMESPACE = 'parse';

/**
 * What a skill's parse depends on: its paths, its SKILL.md's bytes and mode, and its other files
 * (identity only: the malware scan reads scripts, whose text follows from their hash). The code
 * fingerprint in every key covers the parser itself.
 */
export function parseCacheKey(skill: SourceSkill): string {
  return cacheKeyOf(PARSE_NAMESPACE, {
    pass: parsePass.version,
    path: skill.path,
    file: skill.file,
    mode: skill.mode ?? null,
    sha256: sha256(skill.content),
    bytes: skill.content.byteLength,
    files: skill.files.map(fileIdentity),
  });
}

/** A cached parse of the skill, if there is a whole one for exactly these inputs. */
function cachedParse(cache: CacheStore, key: string, skill: SourceSkill): ParseResult | undefined {
  const payload = cache.get(PARSE_NAMESPACE, key);
  if (payload === undefined) return undefined;
  const value = decodeValue(payload) as ParseResult | undefined;
  // The header's hash already proves the payload whole; this catches a payload that decodes to something else.
  const ok = value !== null && typeof value === 'object' && Array.isArray(value.diagnostics) && (value.parent === null || (typeof value.parent === 'object' && value.parent.path === skill.path && value.parent.file === skill.file));
  return ok ? value : undefined;
}

export function parseSkill(skill: SourceSkill, diags: Diagnostic[]): Parent {
  return parseSkillDetailed(skill, diags).parent;
}

export interface DetailedParse {
  readonly parent: Parent;
  /** What splitFrontmatter returned (problems with offsets, and the YAML document). */
  readonly frontmatter: SplitFrontmatter;
  /** The decoded SKILL.md text (byte order mark removed) and its line index. */
  readonly text: string;
  readonly lines: LineIndex;
  /** The first byte that is not UTF-8, when there is one: its offset in the bytes, its value, and where its U+FFFD stands in `text`. */
  readonly invalid?: { readonly byteOffset: number; readonly byte: number; readonly offset: number };
}

/** parseSkill, also returning the frontmatter split; `gfm: false` parses CommonMark only (lint). */
export function parseSkillDetailed(skill: SourceSkill, diags: Diagnostic[], options: { gfm?: boolean } = {}): DetailedParse {
  const file = skill.file;
  const decoded = decodeUtf8(skill.content);
  const text = decoded.text;
  const lines = new LineIndex(text);
  const at = (offset: number, endOffset?: number) => {
    const p = lines.position(offset);
    const e = endOffset !== undefined ? lines.position(endOffset) : undefined;
    return { line: p.line, column: p.column, ...(e ? { endLine: e.line, endColumn: e.column } : {}) };
  };

  if (skill.content.length === 0) {
    diags.push(makeDiagnostic(NAME, 'skill-file-empty', { file, message: 'SKILL.md is empty' }));
  }
  if (decoded.encoding === 'utf-8-bom') {
    diags.push(makeDiagnostic(NAME, 'byte-order-mark', { file, message: 'SKILL.md starts with a UTF-8 byte order mark; it is not part of the decoded text' }));
  }
  let invalid: DetailedParse['invalid'];
  if (decoded.encoding === 'utf-8-invalid') {
    const bad = decoded.firstInvalidByte ?? 0;
    // The bytes before the bad one are valid: decoded alone they are the text up to its U+FFFD.
    invalid = { byteOffset: bad, byte: skill.content[bad] ?? 0, offset: new TextDecoder().decode(skill.content.subarray(0, bad)).length };
    const pos = lines.position(invalid.offset);
    const byte = invalid.byte.toString(16).padStart(2, '0');
    diags.push(makeDiagnostic(NAME, 'invalid-utf8', { file, line: pos.line, column: pos.column, message: `SKILL.md is not valid UTF-8 (first bad byte 0x${byte} at byte offset ${bad}); decoded with U+FFFD replacements` }));
  }
  if (skill.content.length > LARGE_SKILL_BYTES) {
    diags.push(makeDiagnostic(NAME, 'skill-file-large', { file, message: `SKILL.md is ${(skill.content.length / 1048576).toFixed(1)} MiB (${lines.lineCount} lines); nothing is truncated` }));
  }

  const split = splitFrontmatter(text);
  const { frontmatter, problems } = split;
  for (const p of problems) {
    diags.push(makeDiagnostic(NAME, p.kind, { file, ...at(p.offset, p.endOffset), message: p.message }));
  }

  const { units, unclosedFences, bounded } = unitsOfBody(skill.path, text, frontmatter.raw.length, lines, options);
  if (bounded) {
    diags.push(makeDiagnostic(NAME, 'parse-bounded', { file, ...at(bounded.offset), message: `markdown read by the line-level scan, not the full parser: ${bounded.detail}; the skill is copied through unchanged and takes no part in contract mining` }));
  }
  for (const f of unclosedFences) {
    diags.push(makeDiagnostic(NAME, 'unclosed-code-fence', { file, ...at(f.offset, f.offset + f.fence.length), message: `code fence ${f.fence} opened here is never closed; ${unclosedFenceEffect(f, units, text, lines)}` }));
  }

  // Malware install steps (issue 20): the build goes on; the skill is marked in its IR (for the
  // graph and query) and in diagnostics.
  const malicious: MaliciousMark[] = [];
  for (const f of scanMalicious(text)) {
    const pos = lines.position(f.offset);
    malicious.push({ technique: f.technique, file, line: pos.line, column: pos.column, message: describeFinding(f) });
  }
  for (const s of skill.files) {
    // Every text file (a script, a linked setup page, a Makefile, package.json, a text asset): an agent or a tool runs them too.
    if (s.text === undefined) continue;
    const findings = scanMalicious(s.text);
    if (findings.length === 0) continue;
    const index = new LineIndex(s.text);
    for (const f of findings) {
      const pos = index.position(f.offset);
      malicious.push({ technique: f.technique, file: s.path, line: pos.line, column: pos.column, message: describeFinding(f) });
    }
  }
  for (const m of malicious) diags.push(makeDiagnostic(NAME, 'malicious-install', { file: m.file, line: m.line, column: m.column, message: `${m.technique}: ${m.message}` }));

  const by = (k: string) => skill.files.filter((f) => f.kind === k);
  const parent: Parent = {
    path: skill.path,
    file,
    bytes: skill.content.length,
    sha256: sha256(skill.content),
    ...(skill.mode !== undefined ? { mode: skill.mode } : {}),
    ...(malicious.length > 0 ? { malicious } : {}),
    encoding: decoded.encoding,
    lines: lines.lineCount,
    frontmatter,
    units,
    ...(bounded ? { bounded: { reason: bounded.reason, offset: bounded.offset, line: lines.position(bounded.offset).line, detail: bounded.detail } } : {}),
    scripts: by('script'),
    references: by('reference'),
    assets: by('asset'),
  };
  return { parent, frontmatter: split, text, lines, ...(invalid ? { invalid } : {}) };
}
