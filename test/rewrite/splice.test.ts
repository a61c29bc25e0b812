import { describe, expect, it } from 'vitest';
import { applyEdits, eolOf, headingLength, parentText } from '../../src/rewrite/splice.js';
import { parentOf } from '../helpers/skill.js';

describe('splicing edits by offsets', () => {
  it('applies edits in any order and leaves everything else untouched', () => {
    expect(applyEdits('abcdef', [{ start: 4, end: 5, text: 'E' }, { start: 0, end: 1, text: 'A' }, { start: 2, end: 2, text: '+' }])).toBe('Ab+cdEf');
  });

  it('throws on overlapping edits', () => {
    expect(() => applyEdits('abcdef', [{ start: 0, end: 3, text: '' }, { start: 2, end: 4, text: '' }])).toThrow(/overlapping/);
  });

  it('rebuilds the decoded text from frontmatter and units', () => {
    const text = '---\nname: a\n---\nintro\n\n# A\n\nbody\n## B\r\nmore\n';
    expect(parentText(parentOf('a', text))).toBe(text);
  });

  it('measures ATX and setext headings and refuses nested ones', () => {
    const p = parentOf('a', '# Title\n\nx\n\nSetext\n======\n\ny\n\n> ## Quoted\n> z\n');
    const lengths = p.units.map((u) => headingLength(u));
    expect(lengths[0]).toBe(0);
    expect(lengths[1]).toBe('# Title'.length);
    expect(lengths[2]).toBe('Setext\n======'.length);
    if (p.units.length > 3) expect(lengths[3]).toBeNull();
  });

  it('follows the document line ending', () => {
    expect(eolOf('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(eolOf('a\nb\n')).toBe('\n');
  });
});
