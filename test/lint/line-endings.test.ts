/**
 * Lint on a SKILL.md whose lines end in a lone CR (old Mac editors): CommonMark reads CR as a line
 * break, so lint must too. Before, the whole file was one line: a false "no frontmatter", a false
 * "unclosed fence", and every position on line 1.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveTargets } from '../../src/lint/targets.js';
import { lintItems, type LintSettings } from '../../src/lint/run.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';

async function lint(dir: string) {
  const { targets } = resolveTargets([dir], dir);
  const settings: LintSettings = { config: {}, configSource: null, cwd: dir, fix: false, reportUnusedDisableDirectives: true };
  const [r] = await lintItems(targets.map((t) => ({ dir: t.dir, skill: t.skill, settings })), { jobs: 1 });
  return r!.files.flatMap((f) => f.messages).map((m) => `${m.line}:${m.column} ${m.ruleId}`);
}

describe('lint with lone CR line endings', () => {
  const root = scratchDir('lint-cr');
  it('finds the frontmatter and the closed fence, and reports on the right lines', async () => {
    const skill = path.join(root, 'cr-skill');
    const text = ['---', 'name: cr-skill', 'description: A skill saved with lone CR line endings.', 'color: blue', '---', '# Title', '```bash', 'echo hi', '```', '<!-- skillc-disable-next-line link-resolves -->', '[gone](missing.md)', '[also gone](missing-too.md)', ''].join('\r');
    writeTree(skill, { 'SKILL.md': text });
    expect(await lint(skill)).toEqual(['4:1 unknown-fields', '12:1 link-resolves']);
  });
});
