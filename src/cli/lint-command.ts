/**
 * `skillc lint [paths…]`: the pre-commit linter. Resolves the configuration and the skills the
 * paths belong to, lints them (in workers when there are many), writes --fix results, prints the
 * chosen format, and returns ESLint's exit codes: 0 clean or warnings only, 1 errors (or more
 * warnings than --max-warnings), 2 usage, configuration or internal failure, or a fixed SKILL.md
 * that could not be written (each such file is one line on stderr; the others are still written
 * and the whole report printed, with the unwritten file reported as it is on disk).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineWasmOnly } from './wasm-tier.js';
import type { LintConfigFile } from '../lint/config.js';
import type { LintSettings } from '../lint/run.js';
import type { LintFileResult, LintMessage } from '../lint/types.js';
import type { LoadProblem } from '../lint/targets.js';
import { displayPath } from '../lint/subject.js';
import { formatStylish } from '../lint/format/stylish.js';
import { createProgress } from './progress.js';
import { escapeInline } from '../text/terminal.js';
import { errnoText } from '../util/errno.js';
import { TOOL_VERSION } from '../version.js';

/** Runs with fewer skills than this take the start-up shortcuts below (and run in this thread). */
const SHORT_RUN_SKILLS = 48;

export type LintFormat = 'stylish' | 'json' | 'sarif';

export interface LintCommandOptions {
  readonly format: LintFormat;
  readonly outputFile?: string;
  /** -1 = no limit. */
  readonly maxWarnings: number;
  readonly dist?: string;
  readonly fix?: boolean;
  readonly config?: string;
  readonly strict?: boolean;
  readonly quiet?: boolean;
  readonly reportUnusedDisableDirectives?: boolean;
  readonly jobs?: number;
  readonly progress?: boolean;
  readonly cwd?: string;
}

export interface LintIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WriteStream;
}

export async function lintCommand(paths: readonly string[], opts: LintCommandOptions, io: LintIo): Promise<number> {
  const cwd = opts.cwd ?? process.cwd();
  const { ConfigError, findConfigFile, readConfigFile, resolveConfig } = await import('../lint/config.js');
  const { resolveTargets } = await import('../lint/targets.js');
  const fail = (message: string) => {
    io.stderr.write(`skillc lint: ${escapeInline(message)}\n`);
    return 2;
  };

  let configFile: LintConfigFile = {};
  let configSource: string | null = null;
  try {
    configSource = findConfigFile(opts.config, cwd);
    if (configSource) configFile = await readConfigFile(configSource);
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
  let distDir: string | undefined;
  if (opts.dist !== undefined) {
    distDir = path.resolve(cwd, opts.dist);
    try {
      const { loadLintDist } = await import('../lint/dist.js');
      loadLintDist(distDir);
    } catch (err) {
      return fail(err instanceof Error ? err.message : String(err));
    }
  }

  const { targets, problems, errors, skipped } = resolveTargets(paths.length ? paths : ['.'], cwd);
  for (const s of skipped) io.stderr.write(`skillc lint: skipped ${escapeInline(s)} (not inside a skill folder)\n`);
  if (errors.length) {
    for (const e of errors) io.stderr.write(`skillc lint: ${escapeInline(e)}\n`);
    return 2;
  }

  // A short run (the pre-commit case) is dominated by start-up costs. One can be cut: V8 compiles
  // tree-sitter's WebAssembly with its optimising tier in the background, which costs about a
  // second of CPU before the process can exit and buys nothing for a few scans (wasm-tier.ts).
  const short = targets.length < SHORT_RUN_SKILLS;
  if (short) baselineWasmOnly();
  const { lintItems } = await import('../lint/run.js');

  const settings: LintSettings = {
    config: configFile,
    configSource,
    ...(opts.strict ? { strict: true } : {}),
    ...(distDir ? { distDir } : {}),
    cwd,
    fix: opts.fix === true,
    reportUnusedDisableDirectives: opts.reportUnusedDisableDirectives === true,
  };
  const progress = createProgress(io.stderr, opts.progress !== false && targets.length > 20);
  const jobs = opts.jobs ?? Math.max(1, Math.min(8, os.availableParallelism()));
  const items = targets.map((t) => ({
    dir: t.dir,
    skill: t.skill,
    settings,
    loadProblems: t.loadProblems.map((p) => ({ relPath: path.relative(t.dir, p.file).split(path.sep).join('/'), ruleId: p.ruleId, severity: p.severity, message: p.message })),
  }));
  const outcomes = await lintItems(items, { jobs, onProgress: (d, t) => progress.update('lint', d, t) });
  progress.done();

  // Only this command writes: the fixed SKILL.md of each skill --fix changed. A file that cannot
  // be written is reported on one line and linted again as it is, so the report stays true.
  let writeFailed = false;
  for (let i = 0; i < outcomes.length; i++) {
    const fixed = outcomes[i]!.fixed;
    if (!fixed) continue;
    try {
      replaceFile(path.join(targets[i]!.dir, path.basename(targets[i]!.skill.file)), fixed);
    } catch (err) {
      writeFailed = true;
      io.stderr.write(`skillc lint: cannot write ${escapeInline(outcomes[i]!.files[0]?.filePath ?? path.join(targets[i]!.dir, path.basename(targets[i]!.skill.file)))}: ${errnoText(err)}\n`);
      const t = targets[i]!;
      outcomes[i] = (await lintItems([{ ...items[i]!, settings: { ...settings, fix: false } }], { jobs: 1 }))[0]!;
    }
  }

  // Skills and files that could not be read come after the skills that were linted.
  const results: LintFileResult[] = [...outcomes.flatMap((o) => o.files), ...problemResults(problems, cwd)];
  const shown = opts.quiet ? results.map(onlyErrors) : results;
  let text: string;
  if (opts.format === 'json') {
    const { formatJson } = await import('../lint/format/json.js');
    text = formatJson(shown);
  } else if (opts.format === 'sarif') {
    const [{ formatSarif }, { LINT_RULES }] = await Promise.all([import('../lint/format/sarif.js'), import('../lint/rules/registry.js')]);
    const config = resolveConfig(configFile, opts.strict ? { strict: true } : {});
    text = formatSarif(shown, {
      toolVersion: TOOL_VERSION,
      rules: LINT_RULES.map((r) => r.meta),
      sources: new Map(outcomes.flatMap((o) => o.sources)),
      levels: new Map(config.rules.map((r) => [r.rule.meta.id, r.level])),
      srcRoot: cwd,
    });
  } else {
    text = formatStylish(shown, { color: !opts.outputFile && io.stdout.isTTY === true && !process.env.NO_COLOR });
  }
  if (opts.outputFile) {
    try {
      fs.writeFileSync(path.resolve(cwd, opts.outputFile), text);
    } catch (err) {
      return fail(`cannot write ${opts.outputFile}: ${errnoText(err)}`);
    }
  } else io.stdout.write(text);

  const errorCount = results.reduce((n, r) => n + r.errorCount, 0);
  const warningCount = results.reduce((n, r) => n + r.warningCount, 0);
  if (outcomes.some((o) => o.crashed)) {
    io.stderr.write('skillc lint: a rule failed on some skill (see lint/rule-crashed or lint/internal-error above); please report it\n');
    return 2;
  }
  if (writeFailed) return 2;
  if (errorCount > 0) return 1;
  if (opts.maxWarnings >= 0 && warningCount > opts.maxWarnings) {
    io.stderr.write(`skillc lint: too many warnings (${warningCount}); at most ${opts.maxWarnings} allowed (--max-warnings)\n`);
    return 1;
  }
  return 0;
}

/** One result per file that the loader could not read, its messages at line 1. */
function problemResults(problems: readonly LoadProblem[], cwd: string): LintFileResult[] {
  const byFile = new Map<string, LintMessage[]>();
  for (const p of problems) {
    const file = displayPath(p.file, cwd);
    byFile.set(file, [...(byFile.get(file) ?? []), { ruleId: p.ruleId, severity: p.severity, message: p.message, line: 1, column: 1 }]);
  }
  return [...byFile].map(([filePath, messages]) => ({
    filePath,
    messages,
    errorCount: messages.filter((m) => m.severity === 'error').length,
    warningCount: messages.filter((m) => m.severity === 'warning').length,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
  }));
}

/**
 * Replaces a file's contents atomically: the bytes go to a temporary file in the same folder
 * (flushed to disk, with the file's permission bits and, where allowed, its owner), which is then
 * renamed over it, so an interrupted run leaves the old file or the new one, never half of one.
 * A file the user cannot write is refused as a plain write would refuse it, although the rename
 * would only need the folder.
 */
function replaceFile(file: string, bytes: Uint8Array): void {
  const st = fs.statSync(file);
  fs.accessSync(file, fs.constants.W_OK);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.skillc-fix-${process.pid}-${randomBytes(4).toString('hex')}`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'wx', st.mode & 0o7777);
    for (let off = 0; off < bytes.length; ) off += fs.writeSync(fd, bytes, off);
    // The umask may have cleared bits the file had.
    fs.fchmodSync(fd, st.mode & 0o7777);
    if (st.uid !== process.getuid?.() || st.gid !== process.getgid?.()) {
      try {
        fs.fchownSync(fd, st.uid, st.gid);
      } catch {
        // Only root may give a file away; anyone else's fixed file is then theirs, as with an editor.
      }
    }
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, file);
  } catch (err) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function onlyErrors(r: LintFileResult): LintFileResult {
  return { ...r, messages: r.messages.filter((m) => m.severity === 'error'), warningCount: 0, fixableWarningCount: 0 };
}
