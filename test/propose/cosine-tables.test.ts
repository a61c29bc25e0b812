/**
 * The linkage, centroid and spanning-tree code measures cosines from a vector spread over a table
 * (SpreadVector) and keeps sums in tables instead of maps. These tests hold each to the plain code
 * it replaced, on generated libraries: the same numbers to the bit, the same components.
 */
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/calibrate/random.js';
import { buildTfidf, cosine, SpreadVector, type SparseVector } from '../../src/propose/tfidf.js';
import { hasCore, singleLinkage } from '../../src/propose/cluster.js';
import { minLinkWithin } from '../../src/passes/propose.js';

const WORDS = ['install', 'pandas', 'numpy', 'run', 'tests', 'pytest', 'deploy', 'docker', 'image', 'build', 'push', 'merge', 'pdf', 'pages', 'csv', 'table', 'chart', 'plot', 'commit', 'branch'];

function library(seed: number): SparseVector[] {
  const r = seededRng(seed);
  const texts = Array.from({ length: 2 + Math.floor(r() * 60) }, () => {
    // Near-copies of a few base texts, so that links and chains form.
    const base = Math.floor(r() * 4);
    return Array.from({ length: 2 + Math.floor(r() * 10) }, (_, k) => WORDS[(base * 5 + k + (r() < 0.3 ? Math.floor(r() * 20) : 0)) % WORDS.length]).join(' ');
  });
  return buildTfidf(texts).vectors;
}

/** singleLinkage as it was: the same candidates, each cosine a merge of both vectors. */
function referenceLinkage(vectors: readonly SparseVector[], blocks: readonly (string | null)[], threshold: number): number[] {
  const n = vectors.length;
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x]!)));
  const lists = new Map<string, number[]>();
  const tops: string[][] = [];
  for (let i = 0; i < n; i++) {
    const keys: string[] = [];
    if (blocks[i] !== null) {
      const v = vectors[i]!;
      const top = [...v.terms.keys()].sort((p, q) => v.weights[q]! - v.weights[p]! || v.terms[p]! - v.terms[q]!).slice(0, 8).map((k) => v.terms[k]!);
      for (const t of top) {
        const key = `${blocks[i]}\u0000${t}`;
        if (!lists.has(key)) lists.set(key, []);
        lists.get(key)!.push(i);
        keys.push(key);
      }
    }
    tops.push(keys);
  }
  const position = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    for (const key of tops[i]!) {
      const list = lists.get(key)!;
      const at = position.get(key) ?? 0;
      position.set(key, at + 1);
      for (let k = at + 1; k < list.length && k <= at + 32; k++) {
        const j = list[k]!;
        if (find(i) === find(j)) continue;
        if (cosine(vectors[i]!, vectors[j]!) >= threshold) {
          const [a, b] = [find(i), find(j)];
          parent[Math.max(a, b)] = Math.min(a, b);
        }
      }
    }
  }
  return Array.from({ length: n }, (_, i) => find(i));
}

function referenceHasCore(vectors: readonly SparseVector[], members: readonly number[], min: number): boolean {
  const sum = new Map<number, number>();
  for (const i of members) {
    const v = vectors[i]!;
    for (let k = 0; k < v.terms.length; k++) sum.set(v.terms[k]!, (sum.get(v.terms[k]!) ?? 0) + v.weights[k]!);
  }
  let norm = 0;
  for (const w of sum.values()) norm += w * w;
  norm = Math.sqrt(norm) || 1;
  return members.every((i) => {
    const v = vectors[i]!;
    let dot = 0;
    for (let k = 0; k < v.terms.length; k++) dot += v.weights[k]! * (sum.get(v.terms[k]!) ?? 0);
    return dot / norm >= min;
  });
}

function referenceMinLink(vectors: readonly SparseVector[], members: readonly number[]): number {
  const best = new Map(members.slice(1).map((m) => [m, cosine(vectors[members[0]!]!, vectors[m]!)]));
  let min = 1;
  while (best.size > 0) {
    let pick = -1;
    let value = -1;
    for (const [m, c] of best) if (c > value || (c === value && m < pick)) [pick, value] = [m, c];
    min = Math.min(min, value);
    best.delete(pick);
    for (const [m, c] of best) best.set(m, Math.max(c, cosine(vectors[pick]!, vectors[m]!)));
  }
  return min;
}

describe('cosines from a spread vector', () => {
  it('equal cosine() to the bit, whatever was loaded before and however far the other vector reaches', () => {
    const spread = new SpreadVector();
    for (let seed = 1; seed <= 100; seed++) {
      const vectors = library(seed);
      // Load in an order that grows the table from a small vector first.
      const order = [...vectors.keys()].sort((a, b) => (vectors[a]!.terms.at(-1) ?? 0) - (vectors[b]!.terms.at(-1) ?? 0));
      for (const i of order) {
        spread.load(vectors[i]!);
        for (const v of vectors) expect(spread.cosine(v)).toBe(cosine(vectors[i]!, v));
      }
    }
  });
});

describe('a spread vector whose terms do not rise strictly', () => {
  it('is measured by cosine() itself: terms out of order or named twice', () => {
    const spread = new SpreadVector();
    const others = library(3);
    for (const odd of [
      { terms: Uint32Array.from([5, 1]), weights: Float64Array.from([0.6, 0.8]) },
      { terms: Uint32Array.from([1, 1, 4]), weights: Float64Array.from([0.5, 0.5, 0.7]) },
    ]) {
      spread.load(odd);
      for (const v of others) expect(spread.cosine(v)).toBe(cosine(odd, v));
      // And the next vector loaded is spread as usual.
      spread.load(others[0]!);
      for (const v of others) expect(spread.cosine(v)).toBe(cosine(others[0]!, v));
    }
  });
});

describe('linkage, cores and spanning trees against the code they replaced', () => {
  it('give the same components, core verdicts and least links on generated libraries', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const vectors = library(seed);
      const r = seededRng(seed * 7);
      const blocks = vectors.map(() => (r() < 0.1 ? null : ['install', 'run'][Math.floor(r() * 2)]!));
      for (const threshold of [0.2, 0.5, 0.8]) {
        expect([...singleLinkage(vectors, blocks, { threshold }).component]).toEqual(referenceLinkage(vectors, blocks, threshold));
      }
      const members = [...vectors.keys()].filter(() => r() < 0.6);
      for (const min of [0.1, 0.35, 0.6]) expect(hasCore(vectors, members, min)).toBe(referenceHasCore(vectors, members, min));
      if (members.length >= 1) expect(minLinkWithin(vectors, members)).toBe(referenceMinLink(vectors, members));
    }
  });
});
