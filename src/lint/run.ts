/**
 * Lints many skills: in this thread for a few, in worker threads for many (parsing dominates, and
 * results come back in input order, so the output is the same for any number of workers). The
 * settings travel with each item as plain data; each worker resolves them once.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SourceSkill } from '../ir/types.js';
import { resolveConfig, type LintConfigFile } from './config.js';
import { ENGINE_RULES, lintSkill, type LintSkillOptions, type SkillLintResult } from './engine.js';
import { displayFile, displayPath } from './subject.js';
import { createServices, type LintServices } from './services.js';
import { mapInWorkers } from '../util/worker-pool.js';

/** Everything a lint run depends on besides the skill, as plain (cloneable) data. */
export interface LintSettings {
  readonly config: LintConfigFile;
  readonly configSource: string | null;
  readonly strict?: boolean;
  readonly distDir?: string;
  readonly cwd: string;
  readonly fix: boolean;
  readonly reportUnusedDisableDirectives: boolean;
}

export interface LintItem {
  readonly dir: string;
  readonly skill: SourceSkill;
  readonly settings: LintSettings;
  /** Files of the skill the loader could not read or scan, by skill-relative path. */
  readonly loadProblems?: LintSkillOptions['loadProblems'];
}

/** Below this many skills, starting workers costs more than it saves. */
const PARALLEL_MIN_SKILLS = 48;
const workerUrl = new URL('./lint-worker.js', import.meta.url);

let cached: { key: string; services: LintServices } | undefined;

/** Lints one item; services (tokenizer, scanner, dist) are shared by items with the same settings. */
export async function lintItem(item: LintItem): Promise<SkillLintResult> {
  const key = JSON.stringify([item.settings.distDir ?? null]);
  if (!cached || cached.key !== key) cached = { key, services: createServices(item.settings.distDir ? { distDir: item.settings.distDir } : {}) };
  const s = item.settings;
  const config = resolveConfig(s.config, { ...(s.strict !== undefined ? { strict: s.strict } : {}), source: s.configSource });
  try {
    return await lintSkill(item.skill, item.dir, { config, services: cached.services, cwd: s.cwd, fix: s.fix, reportUnusedDisableDirectives: s.reportUnusedDisableDirectives, ...(item.loadProblems ? { loadProblems: item.loadProblems } : {}) });
  } catch (err) {
    // A failure outside any rule (reading, parsing): report it on the skill and go on with the rest.
    const filePath = displayFile(displayPath(item.dir, s.cwd), item.skill.file.slice(item.skill.file.lastIndexOf('/') + 1));
    const message = { ruleId: ENGINE_RULES.internalError, severity: 'error' as const, message: `skillc lint failed on this skill: ${err instanceof Error ? err.message : String(err)}`, line: 1, column: 1 };
    return { files: [{ filePath, messages: [message], errorCount: 1, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0 }], crashed: true, sources: [] };
  }
}

export async function lintItems(items: readonly LintItem[], opts: { jobs: number; onProgress?: (done: number, total: number) => void }): Promise<SkillLintResult[]> {
  if (opts.jobs > 1 && items.length >= PARALLEL_MIN_SKILLS && fs.existsSync(fileURLToPath(workerUrl))) {
    return mapInWorkers<LintItem, SkillLintResult>(workerUrl, items, { jobs: opts.jobs, batchSize: 8, youngGenerationMb: 96, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  }
  const out: SkillLintResult[] = [];
  for (const item of items) {
    out.push(await lintItem(item));
    opts.onProgress?.(out.length, items.length);
  }
  return out;
}
