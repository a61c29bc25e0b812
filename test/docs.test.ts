/**
 * The README documents every diagnostic code, lint rule and MCP tool; `skillc lint --help` names
 * every rule and `skillc serve --help` every tool: one added without its documentation fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../src/ir/diagnostics.js';
import { LINT_RULES } from '../src/lint/rules/registry.js';
import { ENGINE_RULES } from '../src/lint/engine-rules.js';
import { SERVE_TOOLS } from '../src/serve/tools.js';
import { ROOT, skillc } from './helpers/cli.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe('documentation', () => {
  it('the README lists every diagnostic code with its name and severity', () => {
    for (const [name, info] of Object.entries(DIAGNOSTIC_CODES)) {
      expect(readme, info.code).toMatch(new RegExp(`\\| ${info.code} \\| ${name} \\| ${info.severity}`));
    }
  });

  it('the README and lint --help name every lint rule and engine message', () => {
    const help = skillc(['lint', '--help']).stdout;
    for (const rule of LINT_RULES) {
      expect(readme, rule.meta.id).toContain(`| \`${rule.meta.id}\` |`);
      expect(help, rule.meta.id).toContain(rule.meta.id);
    }
    for (const id of [ENGINE_RULES.skillNotRead, ENGINE_RULES.fileNotRead]) {
      expect(readme, id).toContain(id);
      expect(help, id).toContain(id);
    }
  });

  it('the README and serve --help name every MCP tool', () => {
    const help = skillc(['serve', '--help']).stdout;
    for (const tool of SERVE_TOOLS) {
      expect(readme, tool.name).toContain(`| \`${tool.name}\` |`);
      expect(help, tool.name).toContain(`  ${tool.name} {`);
    }
  });
});
