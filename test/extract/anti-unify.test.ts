import { describe, expect, it } from 'vitest';
import { antiUnify, groupLines, lcs } from '../../src/extract/anti-unify.js';
import { tokenizeCode, tokenizeLine, type ActionLine } from '../../src/extract/action-lines.js';
import { shapeSlot } from '../../src/extract/slots.js';

const line = (unit: string, text: string, code = false): ActionLine => {
  const t = code ? tokenizeCode(text) : tokenizeLine(text);
  return { unit, source: code ? 'code' : 'step', shell: false, text, tokens: t.tokens, spaced: t.spaced, line: 1 };
};

describe('anti-unification', () => {
  it('keeps the shared tokens and turns each differing run into a slot (the paper example)', () => {
    const a = line('u1', 'take mug from table');
    const b = line('u2', 'take salt from counter 2');
    const au = antiUnify([a.tokens, b.tokens], [a.spaced, b.spaced]);
    expect(au.pieces.map((p) => (p.kind === 'const' ? p.token : `{${p.index}}`)).join(' ')).toBe('take {0} from {1}');
    expect(au.fillers).toEqual([['mug', 'table'], ['salt', 'counter 2']]);
  });

  it('keeps code spacing in fillers so they are substrings of the source line', () => {
    const a = line('u1', 'subprocess.run(build_cmd(x), shell=True)', true);
    const b = line('u2', 'subprocess.run("ls -la", shell=True)', true);
    const au = antiUnify([a.tokens, b.tokens], [a.spaced, b.spaced]);
    expect(au.fillers.map((f) => f[0])).toEqual(['build_cmd(x)', '"ls -la"']);
    expect(a.text).toContain(au.fillers[0]![0]);
  });

  it('groups lines by their first token and shared shape only', () => {
    const lines = [line('u1', 'pip install pandas'), line('u2', 'pip install numpy scipy'), line('u3', 'npm install left-pad'), line('u1', 'pip freeze')];
    const groups = groupLines(lines);
    expect(groups.map((g) => g.lines.map((l) => l.unit))).toEqual([['u1', 'u2'], ['u3'], ['u1']]);
  });

  it('lcs is the longest common subsequence', () => {
    expect(lcs(['a', 'b', 'c', 'd'], ['b', 'x', 'd'])).toEqual(['b', 'd']);
    expect(lcs([], ['a'])).toEqual([]);
  });
});

describe('slot shapes', () => {
  it('names and types slots from flags, commands and values', () => {
    expect(shapeSlot('--out', ['report.md', 'notes.md'])).toEqual({ name: 'output', type: 'document', output: true });
    expect(shapeSlot('install', ['pandas tabulate', 'numpy'])).toEqual({ name: 'packages', type: 'list', output: false });
    expect(shapeSlot('--width', ['800', '1024'])).toEqual({ name: 'width', type: 'integer', output: false });
    // No word to go by: the values' kind names the slot.
    expect(shapeSlot(undefined, ['in.csv', 'data/x.csv'])).toEqual({ name: 'table', type: 'table', output: false, byKind: true });
    // A dotted number is an address or a version, not a file (its "extension" has no letter).
    expect(shapeSlot(undefined, ['192.168.1.100', '10.0.0.5'])).toEqual({ name: 'host', type: 'string', output: false, byKind: true });
    expect(shapeSlot(undefined, ['1.2.3', 'v2.0.1'])).toEqual({ name: 'version', type: 'string', output: false, byKind: true });
    expect(shapeSlot('cat', ['notes.txt', 'archive.7z'])).toMatchObject({ type: 'file' });
    expect(shapeSlot(undefined, ['https://a.example', 'https://b.example'])).toEqual({ name: 'url', type: 'string', output: false, byKind: true });
    expect(shapeSlot('from', ['table', 'counter'])).toEqual({ name: 'source', type: 'string', output: false });
  });

  it('reads the words around a slot, nearest first', () => {
    expect(shapeSlot({ before: ['install', 'pip'] }, ['pandas tabulate', 'numpy']).name).toBe('packages');
    expect(shapeSlot({ before: ['to', 'go'], prose: true }, ['fridge 1', 'cabinet 2']).name).toBe('destination');
    expect(shapeSlot({ before: ['clone', 'git'] }, ['https://github.com/a/b', 'https://github.com/c/d']).name).toBe('repository');
    expect(shapeSlot({ before: ['--name'] }, ['x', 'y']).name).toBe('name');
    expect(shapeSlot({ before: ['-o'] }, ['a.png'])).toEqual({ name: 'output', type: 'image', output: true });
    expect(shapeSlot({ before: ['kill'] }, ['123', '456'])).toEqual({ name: 'count', type: 'integer', output: false, byKind: true });
    // Phrases that share their head noun are named by it; a participle before a slot names nothing.
    expect(shapeSlot({ before: ['prompted', 'when', 'account'], prose: true, leading: 5 }, ['(OAuth authentication).', '(API key authentication)']).name).toBe('authentication');
    // A flag that takes no value: what follows it is more flags.
    expect(shapeSlot({ before: ['--execute'] }, ['--inplace', '--debug']).name).toBe('options');
  });
});
