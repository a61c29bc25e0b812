import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../../src/text/frontmatter.js';
import { LineIndex } from '../../src/text/line-index.js';

function problemsAt(text: string) {
  const lines = new LineIndex(text);
  const r = splitFrontmatter(text);
  return { ...r, at: r.problems.map((p) => ({ kind: p.kind, ...lines.position(p.offset) })) };
}

describe('splitFrontmatter', () => {
  it('keeps the exact block, closing line and newline included', () => {
    const text = '---\nname: pdf\ndescription: Read PDFs.\n---\n# Body\n';
    const r = splitFrontmatter(text);
    expect(r.frontmatter.raw).toBe('---\nname: pdf\ndescription: Read PDFs.\n---\n');
    expect(r.frontmatter.data).toEqual({ name: 'pdf', description: 'Read PDFs.' });
    expect(r.problems).toEqual([]);
  });

  it('handles CRLF and trailing blanks on the fences', () => {
    const text = '--- \r\nname: x\r\n---\t\r\nbody';
    const r = splitFrontmatter(text);
    expect(r.frontmatter.raw).toBe('--- \r\nname: x\r\n---\t\r\n');
    expect(r.frontmatter.data).toEqual({ name: 'x' });
  });

  it('accepts a closing fence at end of file without a newline', () => {
    const r = splitFrontmatter('---\nname: x\n---');
    expect(r.frontmatter.raw).toBe('---\nname: x\n---');
  });

  it('reports a missing frontmatter at 1:1', () => {
    const r = problemsAt('# Title\n');
    expect(r.frontmatter.raw).toBe('');
    expect(r.at).toEqual([{ kind: 'frontmatter-missing', line: 1, column: 1 }]);
  });

  it('reports an unclosed frontmatter at 1:1 and reads the file as body', () => {
    const r = problemsAt('---\nname: x\n# Title\n');
    expect(r.frontmatter.raw).toBe('');
    expect(r.at).toEqual([{ kind: 'frontmatter-unclosed', line: 1, column: 1 }]);
  });

  it('reports broken YAML at its absolute position and keeps what it can', () => {
    const r = problemsAt('---\nname: ok\ndescription: "unterminated\n---\n');
    // At the opening quote, not where the parser gave up.
    expect(r.at).toEqual([{ kind: 'frontmatter-yaml-error', line: 3, column: 14 }]);
    expect(r.problems[0]!.message).toMatch(/never closed/);
    expect(r.frontmatter.data).toMatchObject({ name: 'ok' });
    expect(r.frontmatter.raw).toBe('---\nname: ok\ndescription: "unterminated\n---\n');
  });

  it('reports a nested mapping in a compact value (a common authoring slip)', () => {
    const r = problemsAt('---\nname: x\ndescription: Use when: you need it\n---\n');
    expect(r.at.some((p) => p.kind === 'frontmatter-yaml-error' && p.line === 3)).toBe(true);
  });

  it('warns about flow-style collections at the bracket', () => {
    const r = problemsAt('---\nname: x\nrequires:\n  mcp: [rube]\n---\n');
    expect(r.frontmatter.data).toEqual({ name: 'x', requires: { mcp: ['rube'] } });
    expect(r.at).toEqual([{ kind: 'frontmatter-flow-style', line: 4, column: 8 }]);
  });

  it('reports a frontmatter that is a list, a scalar, or empty', () => {
    expect(problemsAt('---\n- a\n- b\n---\n').at).toEqual([{ kind: 'frontmatter-not-mapping', line: 2, column: 1 }]);
    expect(problemsAt('---\njust text\n---\n').at).toEqual([{ kind: 'frontmatter-not-mapping', line: 2, column: 1 }]);
    expect(problemsAt('---\n---\n').at).toEqual([{ kind: 'frontmatter-not-mapping', line: 2, column: 1 }]);
  });

  it('reports duplicate keys', () => {
    const r = problemsAt('---\nname: a\nname: b\n---\n');
    expect(r.at[0]).toMatchObject({ kind: 'frontmatter-yaml-error', line: 3 });
  });
});

describe('splitFrontmatter on hostile or unusual input', () => {
  it('reads lone CR line endings (old Mac files) as line breaks, keeping the raw text', () => {
    const text = '---\rname: x\rdescription: y\rtags:\r  - a\r---\rbody\r';
    const r = splitFrontmatter(text);
    expect(r.problems).toEqual([]);
    expect(r.frontmatter.raw).toBe('---\rname: x\rdescription: y\rtags:\r  - a\r---\r');
    expect(r.frontmatter.data).toEqual({ name: 'x', description: 'y', tags: ['a'] });
  });

  it('reports a duplicate key at the repeated key, as the YAML parser did, in linear time', () => {
    const r = problemsAt('---\nname: x\ndescription: y\nname: z\n---\n');
    expect(r.at).toEqual([{ kind: 'frontmatter-yaml-error', line: 4, column: 1 }]);
    expect(r.problems[0]!.message).toBe('invalid YAML: Map keys must be unique');
    // Nested mappings are checked too; equal values under different keys are fine.
    const nested = problemsAt('---\nmetadata:\n  a: 1\n  b: 1\n  a: 2\n---\n');
    expect(nested.at).toEqual([{ kind: 'frontmatter-yaml-error', line: 5, column: 3 }]);
    // 6,000 keys (the parser's own check was quadratic: 20,000 took 3 s) with one repeat at the end.
    const many = Array.from({ length: 6000 }, (_, i) => `k${i}: v`).join('\n');
    const big = problemsAt(`---\n${many}\nk0: again\n---\n`);
    expect(big.at).toEqual([{ kind: 'frontmatter-yaml-error', line: 6002, column: 1 }]);
  });

  it('gives no data, and says why, when an anchor is used inside itself (data that contains itself)', () => {
    for (const yaml of ['description: &x [*x]', 'description: &x {k: *x}', 'meta: &m\n  self: *m']) {
      const r = problemsAt(`---\nname: a\n${yaml}\n---\n# A\n`);
      expect(r.frontmatter.data).toBeNull();
      expect(r.at.map((p) => p.kind)).toContain('frontmatter-yaml-error');
      expect(r.problems.find((p) => p.kind === 'frontmatter-yaml-error')!.message).toMatch(/could not be converted to data/);
    }
    // An alias to an earlier node is fine: shared, not circular.
    expect(splitFrontmatter('---\nname: &n a\ndescription: *n\n---\n').frontmatter.data).toEqual({ name: 'a', description: 'a' });
  });

  it('does not parse frontmatter over the size limit, and says so at its first line', () => {
    const yaml = Array.from({ length: 8000 }, (_, i) => `key${i}: value ${i}`).join('\n');
    const text = `---\n${yaml}\n---\n# Body\n`;
    const r = problemsAt(text);
    expect(r.at).toEqual([{ kind: 'frontmatter-too-large', line: 2, column: 1 }]);
    expect(r.frontmatter.data).toBeNull();
    expect(r.frontmatter.raw + '# Body\n').toBe(text);
  });
});

describe('splitFrontmatter: collection keys (issue 24 item 7)', () => {
  it('reports a list or mapping used as a key at its position, and the YAML library prints nothing', async () => {
    const emitted: unknown[] = [];
    const onWarning = (w: unknown) => emitted.push(w);
    process.on('warning', onWarning);
    const originalWarn = console.warn;
    console.warn = (...args: unknown[]) => emitted.push(args);
    try {
      const block = problemsAt('---\nname: x\nmetadata:\n  ? - a\n    - b\n  : value\n---\nbody\n');
      expect(block.at).toEqual([{ kind: 'frontmatter-yaml-warning', line: 4, column: 5 }]);
      expect(block.problems[0]!.message).toMatch(/a list used as a key is turned into a string/);
      const map = problemsAt('---\nname: x\n? {a: 1}\n: v\n---\n');
      expect(map.at.filter((p) => p.kind === 'frontmatter-yaml-warning')).toEqual([{ kind: 'frontmatter-yaml-warning', line: 3, column: 3 }]);
      // process.emitWarning delivers on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      console.warn = originalWarn;
      process.off('warning', onWarning);
    }
    expect(emitted).toEqual([]);
  });
});

describe('splitFrontmatter bounds the YAML parser', () => {
  it('does not hand flow collections nested 20,000 deep to the recursive parser', () => {
    const r = splitFrontmatter(`---\nname: x\ntags: ${'['.repeat(20000)}${']'.repeat(20000)}\n---\n`);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ kind: 'frontmatter-too-large', offset: '---\nname: x\ntags: '.length + 64 });
    expect(r.frontmatter.data).toBeNull();
    // 64 levels are parsed as usual.
    expect(splitFrontmatter(`---\nname: x\ntags: ${'['.repeat(64)}${']'.repeat(64)}\n---\n`).frontmatter.data).toMatchObject({ name: 'x' });
  });
});

describe('YAML errors per line', () => {
  it('keeps the first error of a line and every duplicate key', () => {
    // One unquoted ': ' in a value: one error, not the parser's cascade after it.
    const colon = splitFrontmatter('---\nname: x\ndescription: Use this skill: when you need x. Also: more\n---\n\nBody.\n');
    expect(colon.problems.filter((p) => p.kind === 'frontmatter-yaml-error')).toHaveLength(1);
    // A duplicate key and an unclosed [ on one line are two mistakes: both are reported.
    const two = splitFrontmatter('---\nname: x\nmetadata: {a: "1", a: "2", b: [x}\n---\n\nBody.\n');
    const messages = two.problems.filter((p) => p.kind === 'frontmatter-yaml-error').map((p) => p.message);
    expect(messages.some((m) => /unique/.test(m))).toBe(true);
    expect(messages.some((m) => /\]/.test(m))).toBe(true);
  });
});
