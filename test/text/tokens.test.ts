/** Word tokens: a run of letters far longer than any word is not handed to the (quadratic) stemmer. */
import { describe, expect, it } from 'vitest';
import { contentTokens, MAX_STEMMED_WORD, stem } from '../../src/text/tokens.js';

describe('stem', () => {
  it('stems words and keeps runs over MAX_STEMMED_WORD letters as they are', () => {
    expect(stem('running')).toBe('run');
    // Stemmed, the run would lose its -ing; a 100,000-letter run took the stemmer minutes.
    const run = `${'a'.repeat(100_000)}ing`;
    expect(contentTokens(`processing ${run} files`)).toEqual(['process', run, 'file']);
    expect(stem('s'.repeat(MAX_STEMMED_WORD + 1))).toBe('s'.repeat(MAX_STEMMED_WORD + 1));
  });
});
