/**
 * The lint schemas under schemas/: the config schema is generated from the rules' metadata and
 * committed, so adding a rule or an option forces a deliberate update of the file (regenerate it
 * with the command below); the results schema describes `--format json`, whose real output is
 * validated in cli.test.ts.
 *
 *   node --input-type=module -e "import {lintConfigSchema} from './build/src/lint/config.js'; import fs from 'node:fs'; fs.writeFileSync('schemas/lint-config.schema.json', JSON.stringify(lintConfigSchema(), null, 2) + '\n')"
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ConfigError, lintConfigSchema, readConfigFile } from '../../src/lint/config.js';
import { LINT_RULES } from '../../src/lint/rules/registry.js';
import { ROOT } from '../helpers/cli.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';

const CONFIG_SCHEMA = path.join(ROOT, 'schemas', 'lint-config.schema.json');
const RESULTS_SCHEMA = path.join(ROOT, 'schemas', 'lint-results.schema.json');

function compile(file: string) {
  // strictTuples off as in readConfigFile: a rule entry is [level] or [level, options].
  return new Ajv2020({ allErrors: true, strict: true, strictTuples: false }).compile(JSON.parse(fs.readFileSync(file, 'utf8')) as object);
}

describe('schemas/lint-config.schema.json', () => {
  it('is exactly lintConfigSchema(), pretty-printed (regenerate it when a rule or option changes)', () => {
    expect(fs.readFileSync(CONFIG_SCHEMA, 'utf8')).toBe(JSON.stringify(lintConfigSchema(), null, 2) + '\n');
  });

  it('names every rule of the registry, each with its options schema', () => {
    const schema = JSON.parse(fs.readFileSync(CONFIG_SCHEMA, 'utf8')) as {
      properties: { rules: { properties: Record<string, { oneOf: [unknown, { prefixItems: [unknown, unknown] }] }> } };
    };
    const rules = schema.properties.rules.properties;
    expect(Object.keys(rules)).toEqual(LINT_RULES.map((r) => r.meta.id));
    for (const r of LINT_RULES) expect(rules[r.meta.id]!.oneOf[1].prefixItems[1]).toEqual(r.meta.optionsSchema);
  });

  it('accepts an example configuration (the one in lint --help among them)', () => {
    const validate = compile(CONFIG_SCHEMA);
    const good = [
      {},
      { strict: false, rules: { 'unknown-fields': 'error', 'body-length': ['warn', { maxLines: 400 }] } },
      {
        $schema: './node_modules/skillc/schemas/lint-config.schema.json',
        strict: true,
        rules: { 'link-depth': ['error', { maxDepth: 2 }], 'undeclared-risk': ['warn'], 'unknown-fields': ['warn', { allow: ['x-vendor'] }], 'fence-balanced': 'off' },
      },
    ];
    for (const config of good) expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['an unknown rule id', { rules: { 'link-depht': 'off' } }],
    ['a wrong level', { rules: { 'link-depth': 'warning' } }],
    ['a numeric level', { rules: { 'link-depth': 1 } }],
    ['a wrong level in a tuple', { rules: { 'link-depth': ['on', { maxDepth: 2 }] } }],
    ['an unknown option', { rules: { 'body-length': ['warn', { maxLine: 400 }] } }],
    ['an option of the wrong type', { rules: { 'body-length': ['warn', { maxLines: '400' }] } }],
    ['a tuple with three items', { rules: { 'link-depth': ['warn', {}, {}] } }],
    ['an empty tuple', { rules: { 'link-depth': [] } }],
    ['an unknown top-level key', { strict: true, rule: {} }],
    ['strict that is not a boolean', { strict: 'yes' }],
  ])('rejects %s', (_what, config) => {
    expect(compile(CONFIG_SCHEMA)(config)).toBe(false);
  });

  it('is what readConfigFile enforces: errors name the file and the bad key', async () => {
    const dir = scratchDir('lint-config');
    writeTree(dir, {
      'good.json': JSON.stringify({ strict: true, rules: { 'body-length': ['warn', { maxLines: 10 }], 'link-depth': ['off'] } }),
      'bad-rule.json': JSON.stringify({ rules: { 'link-depht': 'off' } }),
      'bad-option.json': JSON.stringify({ rules: { 'body-length': ['warn', { maxLine: 10 }] } }),
      'bad-level.json': JSON.stringify({ rules: { 'link-depth': 'warning' } }),
      'not-json.json': '{"rules": {',
    });
    await expect(readConfigFile(path.join(dir, 'good.json'))).resolves.toEqual({ strict: true, rules: { 'body-length': ['warn', { maxLines: 10 }], 'link-depth': ['off'] } });
    const bad = async (name: string) => {
      const err = await readConfigFile(path.join(dir, name)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message).toContain(path.join(dir, name));
      return message;
    };
    expect(await bad('bad-rule.json')).toContain('link-depht');
    expect(await bad('bad-option.json')).toMatch(/\/rules\/body-length\/1 .*\(maxLine\)/);
    expect(await bad('bad-level.json')).toContain('/rules/link-depth');
    expect(await bad('not-json.json')).toContain('not valid JSON');
    expect(await bad('missing.json')).toContain('missing.json does not exist');
  });
});

describe('schemas/lint-results.schema.json', () => {
  const validate = compile(RESULTS_SCHEMA);
  const result = {
    filePath: 'skills/a/SKILL.md',
    messages: [
      { ruleId: 'metadata-string-map', severity: 1, message: 'quote it', line: 6, column: 12, endLine: 6, endColumn: 15, fix: [{ start: 103, end: 106, text: '"1.0"' }] },
      { ruleId: 'lint/unused-disable', severity: 1, message: 'unused', line: 9, column: 1 },
      { ruleId: 'redescribes-contract', severity: 2, message: 're-describes', line: 10, column: 1, suggestion: 'invoke x' },
    ],
    errorCount: 1,
    warningCount: 2,
    fixableErrorCount: 0,
    fixableWarningCount: 1,
    output: '---\n',
  };

  it('accepts a well-formed result array', () => {
    expect(validate([result]), JSON.stringify(validate.errors)).toBe(true);
    expect(validate([]), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['a severity word instead of 1 or 2', (r: typeof result) => ({ ...r, messages: [{ ...r.messages[0]!, severity: 'error' }] })],
    ['a line of 0', (r: typeof result) => ({ ...r, messages: [{ ...r.messages[0]!, line: 0 }] })],
    ['a message without ruleId', (r: typeof result) => ({ ...r, messages: [{ severity: 1, message: 'x', line: 1, column: 1 }] })],
    ['a fix that is not an edit list', (r: typeof result) => ({ ...r, messages: [{ ...r.messages[0]!, fix: { range: [0, 1], text: '' } }] })],
    ['missing counts', (r: typeof result) => ({ filePath: r.filePath, messages: r.messages })],
    ['an unknown property', (r: typeof result) => ({ ...r, source: 'x' })],
  ])('rejects %s', (_what, mutate) => {
    expect(validate([mutate(result)])).toBe(false);
  });
});
