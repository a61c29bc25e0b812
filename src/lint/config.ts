/**
 * Lint configuration: `{ "strict": bool, "rules": { "<rule id>": "off" | "warn" | "error" | [level, options] } }`,
 * as in ESLint and remark-lint. The JSON Schema is generated from the rules' metadata
 * (lintConfigSchema; committed as schemas/lint-config.schema.json, and a test keeps the two equal),
 * so a misspelt rule id or option is a configuration error with its JSON path, exit 2.
 *
 * Without --config, the nearest `.skillc-lint.json` from the working directory upwards is used.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DistReadError, readRegularFile } from '../util/confined-read.js';
import type { JsonSchema, LintRule, RuleLevel } from './types.js';
import { LINT_RULES } from './rules/registry.js';

export const CONFIG_FILE_NAME = '.skillc-lint.json';

export interface LintConfigFile {
  readonly strict?: boolean;
  readonly rules?: Readonly<Record<string, RuleLevel | readonly [RuleLevel] | readonly [RuleLevel, Record<string, unknown>]>>;
}

export interface ResolvedRule {
  readonly rule: LintRule;
  readonly level: RuleLevel;
  readonly options: Readonly<Record<string, unknown>>;
}

export interface ResolvedConfig {
  readonly strict: boolean;
  readonly rules: readonly ResolvedRule[];
  /** Where the configuration came from, or null for the defaults. */
  readonly source: string | null;
}

export class ConfigError extends Error {}

const LEVELS = ['off', 'warn', 'error'] as const;

export function lintConfigSchema(rules: readonly LintRule[] = LINT_RULES): JsonSchema {
  const ruleProps: Record<string, unknown> = {};
  for (const r of rules) {
    ruleProps[r.meta.id] = {
      description: r.meta.summary,
      oneOf: [
        { enum: LEVELS },
        { type: 'array', prefixItems: [{ enum: LEVELS }, r.meta.optionsSchema], minItems: 1, maxItems: 2, items: false },
      ],
    };
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://skillc.dev/schemas/lint-config.schema.json',
    title: 'skillc lint configuration (.skillc-lint.json)',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      strict: { type: 'boolean', description: 'Match the Agent Skills reference validator: unknown fields and strict-YAML problems are errors.' },
      rules: { type: 'object', additionalProperties: false, properties: ruleProps },
    },
  };
}

/** Finds the config file: the given one, else the nearest .skillc-lint.json upwards from `cwd`. */
export function findConfigFile(explicit: string | undefined, cwd: string): string | null {
  if (explicit) return path.resolve(cwd, explicit);
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** A lint configuration is a few hundred bytes; anything past this is not one. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export async function readConfigFile(file: string): Promise<LintConfigFile> {
  let text: string;
  try {
    // A repository's config is input: a link to /dev/zero or a FIFO must not hang the hook.
    text = new TextDecoder().decode(readRegularFile(file, MAX_CONFIG_BYTES));
  } catch (err) {
    throw new ConfigError(err instanceof DistReadError ? `cannot read config: ${err.message}` : `cannot read config ${file}: ${String(err)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config ${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  // strictTuples off: a rule entry is [level] or [level, options], a tuple whose second item is optional.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTuples: false });
  const validate = ajv.compile(lintConfigSchema() as object);
  if (!validate(data)) {
    const first = (validate.errors ?? []).filter((e) => e.keyword !== 'oneOf').slice(0, 5);
    const detail = first.map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''}`).join('; ');
    throw new ConfigError(`config ${file} is invalid: ${detail}`);
  }
  return data as LintConfigFile;
}

/**
 * Per rule: the level (strict mode's level for rules that have one, unless the config sets it) and
 * the options (defaults overlaid with the config's).
 */
export function resolveConfig(file: LintConfigFile, opts: { strict?: boolean; source?: string | null } = {}): ResolvedConfig {
  const strict = opts.strict ?? file.strict ?? false;
  const rules = LINT_RULES.map((rule): ResolvedRule => {
    const entry = file.rules?.[rule.meta.id];
    const base = strict && rule.meta.strictLevel ? rule.meta.strictLevel : rule.meta.defaultLevel;
    if (entry === undefined) return { rule, level: base, options: rule.meta.defaultOptions };
    const [level, options] = typeof entry === 'string' ? [entry, undefined] : [entry[0], entry[1]];
    return { rule, level, options: { ...rule.meta.defaultOptions, ...(options ?? {}) } };
  });
  return { strict, rules, source: opts.source ?? null };
}
