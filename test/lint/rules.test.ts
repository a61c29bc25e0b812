/**
 * Every lint rule against its valid and invalid fixtures (test/fixtures/lint/<rule>/{valid,invalid}/<case>/):
 * valid cases give no message of the rule, invalid cases at least one, and the rendered messages
 * (with the fixed text for fixable rules) are compared with a snapshot per rule, updated
 * deliberately with `vitest -u`. Fixes are also re-linted: what --fix leaves has no fixable
 * message of the rule, and fixing twice changes nothing more.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LINT_RULES } from '../../src/lint/rules/registry.js';
import { resolveTargets } from '../../src/lint/targets.js';
import { lintItems, type LintSettings } from '../../src/lint/run.js';
import { applyFixes } from '../../src/lint/engine.js';
import { formatStylish } from '../../src/lint/format/stylish.js';
import type { LintFileResult } from '../../src/lint/types.js';
import { ROOT } from '../helpers/cli.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'lint');

function only(ruleId: string): LintSettings['config'] {
  return { rules: Object.fromEntries(LINT_RULES.map((r) => [r.meta.id, r.meta.id === ruleId ? 'warn' : 'off'])) };
}

async function lintCase(ruleId: string, dir: string, fix = false): Promise<{ files: readonly LintFileResult[]; fixed?: string }> {
  const cwd = path.join(FIXTURES, ruleId);
  const { targets, errors } = resolveTargets([dir], cwd);
  expect(errors).toEqual([]);
  const settings: LintSettings = { config: only(ruleId), configSource: null, cwd, fix, reportUnusedDisableDirectives: false };
  const [result] = await lintItems(targets.map((t) => ({ dir: t.dir, skill: t.skill, settings })), { jobs: 1 });
  return { files: result!.files, ...(result!.fixed ? { fixed: new TextDecoder().decode(result!.fixed) } : {}) };
}

function cases(ruleId: string, kind: 'valid' | 'invalid'): string[] {
  const dir = path.join(FIXTURES, ruleId, kind);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((c) => path.join(dir, c)) : [];
}

const localRules = LINT_RULES.filter((r) => !r.meta.needsDist);

describe('rule metadata', () => {
  it.each(LINT_RULES.map((r) => [r.meta.id, r] as const))('%s has a kebab id, a one-paragraph doc and options that match their schema', (_id, rule) => {
    const m = rule.meta;
    expect(m.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(m.summary.length).toBeGreaterThan(10);
    expect(m.doc.length).toBeGreaterThan(80);
    expect(m.doc).not.toContain('\n');
    const validate = new Ajv2020({ strict: true }).compile(m.optionsSchema as object);
    expect(validate(m.defaultOptions), JSON.stringify(validate.errors)).toBe(true);
    if (m.strictLevel) expect(m.strictLevel).not.toBe(m.defaultLevel);
  });

  it('ids are unique', () => {
    const ids = LINT_RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe.each(localRules.map((r) => [r.meta.id, r] as const))('%s', (id, rule) => {
  it('has valid and invalid fixtures', () => {
    expect(cases(id, 'valid').length).toBeGreaterThan(0);
    expect(cases(id, 'invalid').length).toBeGreaterThan(0);
  });

  it('reports nothing on its valid fixtures', async () => {
    for (const dir of cases(id, 'valid')) {
      const { files } = await lintCase(id, dir);
      expect(files.flatMap((f) => f.messages), path.basename(dir)).toEqual([]);
    }
  });

  it('reports its invalid fixtures as in the snapshot', async () => {
    const parts: string[] = [];
    for (const dir of cases(id, 'invalid')) {
      const { files } = await lintCase(id, dir);
      const messages = files.flatMap((f) => f.messages);
      expect(messages.length, path.basename(dir)).toBeGreaterThan(0);
      expect(messages.every((m) => m.ruleId === id)).toBe(true);
      parts.push(`## invalid/${path.basename(dir)}\n${formatStylish(files).replace(/\n\n✖[^]*$/, '\n')}`);
      if (rule.meta.fixable && messages.some((m) => m.fix)) {
        const fixed = await lintCase(id, dir, true);
        expect(fixed.fixed, 'a fixable message must change the file').toBeDefined();
        parts.push(`### fixed SKILL.md\n${fixed.fixed}`);
        // What --fix leaves has no fixable message of this rule, and a second fix is a no-op.
        const after = fixed.files.flatMap((f) => f.messages);
        expect(after.filter((m) => m.fix)).toEqual([]);
        const again = applyFixes(fixed.fixed!, after.flatMap((m) => (m.fix ? [m.fix] : [])));
        expect(again).toBe(fixed.fixed);
      }
    }
    await expect(parts.join('\n')).toMatchFileSnapshot(path.join(ROOT, 'test', 'lint', '__snapshots__', `${id}.txt`));
  });
});
