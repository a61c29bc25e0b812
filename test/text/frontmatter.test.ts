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
