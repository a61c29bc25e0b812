/**
 * SARIF 2.1.0 for GitHub code scanning: one run, the driver lists every rule (stable ids, docs,
 * default level, security tags), results point at files relative to the working directory
 * (uriBaseId %SRCROOT%), and each result carries a partial fingerprint computed from the rule,
 * the trimmed text of its line and its occurrence, so alerts survive lines moving up or down.
 *
 * The run defines %SRCROOT% in `originalUriBaseIds` as the file URI of that working folder
 * (SARIF 2.1.0 §3.14.14): without it a consumer resolves the relative paths against a folder of
 * its own choosing, and a checker run from elsewhere misreads every path. That one absolute URI is
 * the only machine-specific value (no times), so the same input in the same folder gives the same
 * bytes.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LintFileResult, LintRuleMeta } from '../types.js';
import { ENGINE_RULES } from '../engine.js';
import { stableStringify } from '../../util/stable-json.js';

export interface SarifOptions {
  readonly toolVersion: string;
  readonly rules: readonly LintRuleMeta[];
  /** Text of each linted file by its filePath, for fingerprints; a missing file hashes its message. */
  readonly sources: ReadonlyMap<string, string>;
  /** Per rule id, the level the configuration gives it (for defaultConfiguration). */
  readonly levels?: ReadonlyMap<string, 'off' | 'warn' | 'error'>;
  /** Absolute path of the folder the results' paths are relative to (the working folder): %SRCROOT%. */
  readonly srcRoot: string;
}

/** The folder as an absolute file URI with the trailing slash a base URI needs (SARIF §3.14.14). */
export function folderUri(folder: string): string {
  const href = pathToFileURL(path.resolve(folder)).href;
  return href.endsWith('/') ? href : `${href}/`;
}

const ENGINE_DOCS: Record<string, string> = {
  [ENGINE_RULES.unusedDisable]: 'A skillc-disable comment that suppressed nothing (reported with --report-unused-disable-directives).',
  [ENGINE_RULES.unknownRule]: 'A skillc-disable or skillc-enable comment names a rule id that does not exist.',
  [ENGINE_RULES.disableRefused]: 'A skillc-disable comment names a rule that catches malicious skills: a skill cannot turn it off for itself (its findings are still reported); only the lint config can.',
  [ENGINE_RULES.ruleCrashed]: 'A lint rule failed on this skill; the other rules still ran. Please report it.',
  [ENGINE_RULES.internalError]: 'skillc lint could not read or parse this skill.',
};

function pascal(id: string): string {
  return id.split(/[-/]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** A relative URI reference for a POSIX path: each segment percent-encoded (encodeURI would leave `#` and `?`, which end the path). */
function relativeUri(filePath: string): string {
  return filePath.split('/').map(encodeURIComponent).join('/');
}

function sarifLevel(level: 'off' | 'warn' | 'error'): 'none' | 'warning' | 'error' {
  return level === 'error' ? 'error' : level === 'warn' ? 'warning' : 'none';
}

export function formatSarif(results: readonly LintFileResult[], opts: SarifOptions): string {
  const usedEngineRules = [...new Set(results.flatMap((r) => r.messages.map((m) => m.ruleId)).filter((id) => id in ENGINE_DOCS))].sort();
  const rules = [
    ...opts.rules.map((m) => ({
      id: m.id,
      name: pascal(m.id),
      shortDescription: { text: m.summary },
      fullDescription: { text: m.doc },
      help: { text: m.doc, markdown: `**${m.id}**: ${m.doc}` },
      defaultConfiguration: { level: sarifLevel(opts.levels?.get(m.id) ?? m.defaultLevel) },
      properties: {
        tags: ['agent-skills', m.category, ...(m.tags ?? [])],
        precision: 'high',
        ...(m.securitySeverity && m.tags?.includes('security') ? { 'security-severity': m.securitySeverity } : {}),
      },
    })),
    ...usedEngineRules.map((id) => ({
      id,
      name: pascal(id),
      shortDescription: { text: ENGINE_DOCS[id]! },
      fullDescription: { text: ENGINE_DOCS[id]! },
      defaultConfiguration: { level: 'warning' },
      properties: { tags: ['agent-skills', 'lint'], precision: 'high' },
    })),
  ];
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const sarifResults = [];
  for (const r of results) {
    const source = opts.sources.get(r.filePath);
    const lines = source?.split('\n');
    const seen = new Map<string, number>();
    for (const m of r.messages) {
      const lineText = lines?.[m.line - 1]?.trim() ?? m.message;
      const hash = createHash('sha256').update(`${m.ruleId}\0${lineText}`).digest('hex').slice(0, 16);
      const occurrence = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, occurrence);
      sarifResults.push({
        ruleId: m.ruleId,
        ruleIndex: index.get(m.ruleId) ?? 0,
        level: m.severity === 'error' ? 'error' : 'warning',
        message: { text: m.suggestion ? `${m.message} (suggestion: ${m.suggestion})` : m.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: relativeUri(r.filePath), uriBaseId: '%SRCROOT%' },
              region: {
                startLine: m.line,
                startColumn: m.column,
                ...(m.endLine !== undefined ? { endLine: m.endLine } : {}),
                ...(m.endColumn !== undefined ? { endColumn: m.endColumn } : {}),
              },
            },
          },
        ],
        partialFingerprints: { primaryLocationLineHash: `${hash}:${occurrence}` },
      });
    }
  }
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'skillc', version: opts.toolVersion, semanticVersion: opts.toolVersion, rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: folderUri(opts.srcRoot), description: { text: 'The folder skillc lint ran in; result paths are relative to it.' } } },
        columnKind: 'utf16CodeUnits',
        results: sarifResults,
      },
    ],
  };
  return stableStringify(log);
}
