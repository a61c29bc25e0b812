/**
 * Coverage leaves out the task's words that no skill holds, so an off-topic task still gets hits;
 * the answer names those words, as the task wrote them, so the agent can see what the hits were
 * not matched on (query/render.ts unknownNote).
 */
import { describe, expect, it } from 'vitest';
import { preamble, unknownNote, unreadNote } from '../../src/query/render.js';
import { queryTerms } from '../../src/query/rank.js';

describe('unknownNote', () => {
  it('is empty when the library holds every word', () => {
    expect(unknownNote('convert a docx to pdf', [], 1)).toBe('');
  });

  it('names the words as written, each once, with the coverage of the rest', () => {
    const query = 'Write a knitting pattern for a cable-knit baby sweater; knitting takes time';
    const unknown = queryTerms('knitting cable knit sweater');
    const note = unknownNote(query, unknown, 0.614);
    expect(note).toBe('> No skill in the library holds these words of the task: knitting, cable, knit, sweater. The best hit covers 61% of the weight of the other words.\n\n');
  });

  it('says what the hits match when the unknown words are most of the task', () => {
    const query = 'transcirbe an audo file with whsiper and sumarize it';
    const note = unknownNote(query, queryTerms('transcirbe audo whsiper sumarize'), 1);
    expect(note).toBe('> No skill in the library holds these words of the task: transcirbe, audo, whsiper, sumarize. The hits match only the word file, and may not be what the task asks for: check its spelling, or the library may have no skill for it.\n\n');
    expect(note).not.toContain('100%');
  });

  it('counts the words the task types: a name in humps is one word, not its three terms', () => {
    const note = unknownNote('xqzv blorf PowerPoint', queryTerms('xqzv blorf'), 1);
    expect(note).toBe('> No skill in the library holds these words of the task: xqzv, blorf. The hits match only the word PowerPoint, and may not be what the task asks for: check its spelling, or the library may have no skill for it.\n\n');
  });

  it('gives counts instead of words when the notes would take more than the budget in bytes', () => {
    const junk = Array.from({ length: 12 }, (_, i) => `q${String.fromCharCode(98 + i)}vgwvvwgvqggqvgwvvwgvqggqvgwkfjh`);
    const query = `${junk.join(' ')} convert pdf 将PDF转换为Word文档`;
    const p = preamble(query, 8, 100, 200, 'query', queryTerms(junk.join(' ')), 1);
    expect(p).toContain('> The index holds words in Latin letters only; 3 words were not read.');
    expect(p).toContain('> 12 words of the task are in no skill of the library. The hits match only 3 other words, and may not be what the task asks for');
    expect(Buffer.byteLength(preamble(query, 8, 100, 8000, 'query', queryTerms(junk.join(' ')), 1))).toBeGreaterThan(Buffer.byteLength(p));
    // A short task keeps its word list at the smallest budgets.
    expect(preamble('make a powerpoint deck', 4, 100, 200, 'query', queryTerms('powerpoint deck'), 1)).toContain('these words of the task: powerpoint, deck.');
  });

  it('shows at most eight words, cut, and says how many more', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `zq${String.fromCharCode(97 + i)}${'x'.repeat(30)}`);
    const note = unknownNote(`parse ${ids.join(' ')}`, queryTerms(ids.join(' ')), 1);
    expect(note).toContain(' and 4 more.');
    expect(note.match(/zq/g)).toHaveLength(8);
    expect(note).not.toContain('x'.repeat(23));
  });

  it('is part of the preamble, which the budget is charged for', () => {
    const p = preamble('knit a sweater', 8, 100, 8000, 'query', queryTerms('knit sweater'), 0.5);
    expect(p).toMatch(/^<!-- skillc query "knit a sweater": 8 hits, at most 100 of 8000 tokens \(o200k_base\) -->\n\n> No skill in the library holds these words of the task: knit, sweater\. /);
  });
});

describe('unreadNote', () => {
  it('names the words of a script the index does not read, and says nothing for Latin ones', () => {
    expect(preamble('将PDF转换为Word文档', 1, 10, 1000)).toContain('> The index holds words in Latin letters only; not read: 将, 转换为, 文档.');
    expect(unreadNote('parse a résumé')).toBe('');
  });
});
