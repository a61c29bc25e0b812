/**
 * `skillc lint --fix` changes a SKILL.md's data only as each fix intends (fix-check.ts): anchors,
 * aliases, tags, nulls, quoted and multi-line scalars and comments come through a fix; a fix that
 * would change anything else is dropped and its problem stays reported; the body is never touched.
 * And a SKILL.md that cannot be written costs one line on stderr and exit 2, not the report.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSkill } from '../../src/lint/engine.js';
import { resolveConfig } from '../../src/lint/config.js';
import { resolveTargets } from '../../src/lint/targets.js';
import { createServices } from '../../src/lint/services.js';
import { fixRefusal, frontmatterState } from '../../src/lint/fix-check.js';
import { splitFrontmatter } from '../../src/text/frontmatter.js';
import type { LintMessage } from '../../src/lint/types.js';
import { ROOT } from '../helpers/cli.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';

const services = createServices();
const BODY = '# Demo\n\nText with `code`, a --- line below, and trailing spaces.   \n\n---\n\nEnd.\n';

/** Lints one skill `demo` with --fix in this thread; the fixed text (or the original) and the messages after. */
async function fix(frontmatter: string): Promise<{ original: string; text: string; fixed: boolean; messages: readonly LintMessage[] }> {
  const root = scratchDir('lint-fix-safety');
  const original = `---\nname: demo\ndescription: A skill whose frontmatter --fix must keep as data.\n${frontmatter}---\n${BODY}`;
  writeTree(root, { 'demo/SKILL.md': original });
  const { targets } = resolveTargets([path.join(root, 'demo')], root);
  const result = await lintSkill(targets[0]!.skill, targets[0]!.dir, { config: resolveConfig({}), services, cwd: root, fix: true });
  const text = result.fixed ? new TextDecoder().decode(result.fixed) : original;
  return { original, text, fixed: result.fixed !== undefined, messages: result.files[0]!.messages };
}

const dataOf = (text: string) => splitFrontmatter(text).frontmatter.data;
const bodyOf = (text: string) => text.slice(splitFrontmatter(text).frontmatter.raw.length);
const of = (messages: readonly LintMessage[], ruleId: string) => messages.filter((m) => m.ruleId === ruleId);

describe('--fix keeps the frontmatter data', () => {
  it('keeps an anchor on a list that becomes a block list, so its alias still resolves', async () => {
    const r = await fix('tags: &t [a, b]\nother: *t\nnothing: null\ntilde: ~\n');
    expect(r.text).toContain('tags: &t\n  - a\n  - b\nother: *t\n');
    expect(dataOf(r.text)).toStrictEqual(dataOf(r.original));
    expect(dataOf(r.text)).toMatchObject({ tags: ['a', 'b'], other: ['a', 'b'], nothing: null, tilde: null });
    expect(of(r.messages, 'frontmatter-yaml')).toEqual([]);
    expect(r.messages.some((m) => m.message.includes('flow-style list'))).toBe(false);
    expect(bodyOf(r.text)).toBe(BODY);
  });

  it('keeps anchors, aliases and tags on the items, and their types (!!str 1 stays the text "1")', async () => {
    const r = await fix("tags: [&x a, *x, !!str 1, 'q']\n");
    expect(r.text).toContain('tags:\n  - &x a\n  - *x\n  - !!str 1\n  - \'q\'\n');
    expect(dataOf(r.text)).toStrictEqual(dataOf(r.original));
    expect((dataOf(r.text) as { tags: unknown[] }).tags).toStrictEqual(['a', 'a', '1', 'q']);
  });

  it('leaves null and ~ null: reported under metadata without a fix, kept as written in a list', async () => {
    const r = await fix('metadata:\n  version: 1.0\n  owner: null\n  team: ~\ntags: [a, null, ~]\n');
    const data = dataOf(r.text) as { metadata: Record<string, unknown>; tags: unknown[] };
    expect(data.metadata).toStrictEqual({ version: '1.0', owner: null, team: null });
    expect(data.tags).toStrictEqual(['a', null, null]);
    expect(r.text).toContain('  owner: null\n  team: ~\ntags:\n  - a\n  - null\n  - ~\n');
    const nulls = of(r.messages, 'metadata-string-map');
    expect(nulls.map((m) => m.message)).toEqual([
      'metadata.owner is null, read as null (no value), not a string: remove it, or quote it if you mean the text',
      'metadata.team is ~, read as null (no value), not a string: remove it, or quote it if you mean the text',
    ]);
    expect(nulls.every((m) => m.fix === undefined)).toBe(true);
  });

  it('keeps quoted and multi-line scalars byte for byte and as data', async () => {
    const fm = [
      "tags: ['a, b', \"c: d\", 'it''s']",
      'summary: >',
      '  folded over',
      '  two lines',
      'note: plain text that',
      '  goes on here',
      'metadata:',
      '  version: 2',
      '  motto: "quoted: yes"',
      '',
    ].join('\n');
    const r = await fix(fm);
    expect(r.text).toContain("tags:\n  - 'a, b'\n  - \"c: d\"\n  - 'it''s'\nsummary: >\n  folded over\n  two lines\nnote: plain text that\n  goes on here\n");
    const before = dataOf(r.original) as Record<string, unknown>;
    expect(dataOf(r.text)).toStrictEqual({ ...before, metadata: { version: '2', motto: 'quoted: yes' } });
    expect((dataOf(r.text) as { summary: string }).summary).toBe('folded over two lines\n');
  });

  it('keeps every comment, in order', async () => {
    const r = await fix('# leading comment\ntags: # why these tags\n  [a, b] # after the list\nmetadata:\n  version: 1.0 # the release\n');
    expect(r.fixed).toBe(true);
    expect(r.text).toContain('# leading comment\ntags: # why these tags\n  - a\n  - b # after the list\nmetadata:\n  version: "1.0" # the release\n');
    expect(dataOf(r.text)).toStrictEqual({ ...(dataOf(r.original) as object), metadata: { version: '1.0' } });
  });
});

describe('a fix that would change more than it intends is dropped and stays reported', () => {
  it('does not quote a number an alias also points at (the alias would change too)', async () => {
    const r = await fix('metadata:\n  version: &v 1.0\nother: *v\n');
    expect(r.fixed).toBe(false);
    const [m] = of(r.messages, 'metadata-string-map');
    expect(m).toMatchObject({ message: 'metadata.version is 1.0, read as a number, not a string: quote it' });
    expect(m!.fix).toBeUndefined();
  });

  it('does not join an anchored allowed-tools list an alias uses, and does not drop a comment in a list', async () => {
    const r = await fix('allowed-tools: &tools [Read, Bash]\nother: *tools\n');
    // The flow list became a block list (data kept); the join to a string would lose the anchor.
    expect(r.text).toContain('allowed-tools: &tools\n  - Read\n  - Bash\nother: *tools\n');
    expect(dataOf(r.text)).toStrictEqual(dataOf(r.original));
    const [m] = of(r.messages, 'allowed-tools-string');
    expect(m).toBeDefined();
    expect(m!.fix).toBeUndefined();

    const c = await fix('allowed-tools:\n  - Read # reads files\n  - Bash\n');
    expect(c.fixed).toBe(false);
    expect(of(c.messages, 'allowed-tools-string')[0]!.fix).toBeUndefined();
  });

  it('does not join a list holding a null into the text "null"', async () => {
    const r = await fix('allowed-tools: [Read, null]\n');
    expect((dataOf(r.text) as { 'allowed-tools': unknown })['allowed-tools']).toStrictEqual(['Read', null]);
    expect(of(r.messages, 'allowed-tools-string')[0]!.fix).toBeUndefined();
  });
});

describe('fixRefusal', () => {
  const text = `---\nname: demo\ntags: &t [a, b]\nother: *t\nmetadata:\n  owner: null\n  version: 1.0\n---\n${BODY}`;
  const before = frontmatterState(text);
  const at = (s: string) => text.indexOf(s);
  const edit = (from: string, replacement: string) => {
    const start = at(from);
    return { edits: [{ start, end: start + from.length, text: replacement }], after: text.slice(0, start) + replacement + text.slice(start + from.length) };
  };

  it('accepts a layout-only edit and an edit that makes exactly its declared change', () => {
    const layout = edit(': &t [a, b]', ': &t\n  - a\n  - b');
    expect(fixRefusal(before, layout.edits, layout.after, [])).toBeNull();
    const quote = edit('1.0', '"1.0"');
    expect(fixRefusal(before, quote.edits, quote.after, [{ path: ['metadata', 'version'], from: ['number'], to: '1.0' }])).toBeNull();
  });

  it('refuses the old flow-list fix that dropped the anchor (the alias no longer resolves)', () => {
    const old = edit(': &t [a, b]', ':\n  - a\n  - b');
    expect(fixRefusal(before, old.edits, old.after, [])).toMatch(/^the YAML would gain a problem/);
  });

  it('refuses a change the fix did not declare, and a declared change from null', () => {
    const quote = edit('1.0', '"1.0"');
    expect(fixRefusal(before, quote.edits, quote.after, [])).toBe('metadata.version would change from 1 to "1.0"');
    const nul = edit('null', '"null"');
    expect(fixRefusal(before, nul.edits, nul.after, [{ path: ['metadata', 'owner'], from: ['number', 'boolean'], to: 'null' }])).toBe('metadata.owner is null, and the fix only changes a number or boolean');
  });

  it('refuses an edit that would move the end of the frontmatter, and one outside it', () => {
    const split = edit('  version: 1.0\n', '  version: 1.0\n---\n');
    expect(fixRefusal(before, split.edits, split.after, [])).toBe('the body would change');
    const body = edit('End.', 'The end.');
    expect(fixRefusal(before, body.edits, body.after, [])).toBe('an edit lies outside the frontmatter YAML');
  });
});

describe('--fix on a SKILL.md that cannot be written', () => {
  // As root, file permissions stop nothing; the CLI then runs as nobody (65534), which can read the
  // build and the scratch folder but not write the locked skill.
  const asRoot = process.getuid?.() === 0;

  it.skipIf(process.platform === 'win32')('reports that file on one line, writes the others, prints the whole report and exits 2', () => {
    const root = scratchDir('lint-readonly');
    const skill = (name: string) => `---\nname: ${name}\ndescription: A skill with a number in its metadata.\nmetadata:\n  version: 1.0\n---\n\n# ${name}\n`;
    writeTree(root, { 'a-locked/SKILL.md': skill('a-locked'), 'b-open/SKILL.md': skill('b-open') });
    fs.chmodSync(root, 0o755);
    fs.chmodSync(path.join(root, 'a-locked', 'SKILL.md'), 0o444);
    fs.chmodSync(path.join(root, 'a-locked'), 0o555);
    fs.chmodSync(path.join(root, 'b-open', 'SKILL.md'), 0o666);
    fs.chmodSync(path.join(root, 'b-open'), 0o777);
    try {
      const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillc.js'), 'lint', '--fix', '-f', 'json', '.'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', CI: '1' },
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toBe('skillc lint: cannot write a-locked/SKILL.md: EACCES (permission denied)\n');
      const results = JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string; fix?: unknown }[]; fixableWarningCount: number; output?: string }[];
      // The locked file is reported as it still is on disk: its problem, fixable, and no output.
      expect(results.map((f) => f.filePath)).toEqual(['a-locked/SKILL.md', 'b-open/SKILL.md']);
      expect(results[0]).toMatchObject({ fixableWarningCount: 1, messages: [{ ruleId: 'metadata-string-map' }] });
      expect(results[0]!.output).toBeUndefined();
      expect(results[1]).toMatchObject({ messages: [], output: skill('b-open').replace('version: 1.0', 'version: "1.0"') });
      expect(fs.readFileSync(path.join(root, 'a-locked', 'SKILL.md'), 'utf8')).toBe(skill('a-locked'));
      expect(fs.readFileSync(path.join(root, 'b-open', 'SKILL.md'), 'utf8')).toBe(skill('b-open').replace('version: 1.0', 'version: "1.0"'));
      // Replaced by rename: the permission bits are the old file's (not the umask's), no temporary file is left.
      expect(fs.statSync(path.join(root, 'b-open', 'SKILL.md')).mode & 0o777).toBe(0o666);
      expect(fs.readdirSync(path.join(root, 'b-open'))).toEqual(['SKILL.md']);
      expect(fs.readdirSync(path.join(root, 'a-locked'))).toEqual(['SKILL.md']);
    } finally {
      fs.chmodSync(path.join(root, 'a-locked'), 0o755);
    }
  });
});
