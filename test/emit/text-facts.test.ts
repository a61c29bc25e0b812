/**
 * The text-facts worker (emit/text-facts.ts) computes, in a thread, per-skill values rendering
 * would otherwise compute itself, and the graph's body model (TF-IDF vectors, nearest skills). It runs the compiled module (a worker needs JavaScript), so this
 * test drives build/src in a child process and compares the worker's values with the functions
 * rendering calls, skill by skill, over every fixture library.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const at = (m: string) => JSON.stringify(path.join(ROOT, 'build', 'src', m));

describe('per-skill values from the text-facts worker', () => {
  it('equal what rendering computes, for every skill of the fixture libraries', () => {
    const script = `
      import { loadLibrary } from ${at('load/load-library.js')};
      import { parseOne } from ${at('passes/parse.js')};
      import { startTextFacts } from ${at('emit/text-facts.js')};
      import { loadTokenCounter } from ${at('text/bpe.js')};
      import { buildTfidfFromCounts, indexTermCounts } from ${at('propose/tfidf.js')};
      import { nearestParents } from ${at('graph/edges/sem.js')};
      import { loadArtifactLexicon, skillIO } from ${at('graph/artifacts.js')};
      import { parentText } from ${at('rewrite/splice.js')};
      const parents = [];
      for (const lib of ['examples/skills', 'test/fixtures/retrieval', 'test/fixtures/passages', 'test/fixtures/alfworld', 'test/fixtures/malicious-mix']) {
        for (const s of loadLibrary(${JSON.stringify(ROOT)} + '/' + lib).skills) { const p = parseOne(s).parent; if (p) parents.push(p); }
      }
      const facts = await startTextFacts(parents).result;
      if (!facts) { console.log('no facts'); process.exit(1); }
      const count = await loadTokenCounter();
      const lex = loadArtifactLexicon();
      let differ = 0;
      parents.forEach((p, i) => {
        const body = p.units.map((u) => u.text).join('');
        const want = JSON.stringify([count(parentText(p)), indexTermCounts(body), skillIO(p, lex)]);
        const got = JSON.stringify([facts.tokens[i], facts.bodyCounts[i], facts.io[i]]);
        if (want !== got) { differ++; console.error(p.path, want.slice(0, 200), got.slice(0, 200)); }
      });
      // The body model: the vectors and neighbours the graph would compute from the same counts.
      const vectors = buildTfidfFromCounts(parents.map((p) => indexTermCounts(p.units.map((u) => u.text).join('')))).vectors;
      const plain = (vs) => JSON.stringify(vs.map((v) => [Array.from(v.terms), Array.from(v.weights)]));
      const model = plain(facts.bodyModel.vectors) === plain(vectors) && JSON.stringify(facts.bodyModel.nearest) === JSON.stringify(nearestParents(vectors, parents.map((p) => 'skill:' + p.path)));
      const neighbours = facts.bodyModel.nearest.reduce((a, n) => a + n.length, 0);
      console.log(JSON.stringify({ skills: parents.length, differ, same: facts.parents === parents, mentions: facts.io.reduce((a, x) => a + x.mentions.length, 0), model, neighbours }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: ROOT });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { skills: number; differ: number; same: boolean; mentions: number; model: boolean; neighbours: number };
    expect(out.differ).toBe(0);
    expect(out.same).toBe(true);
    expect(out.skills).toBeGreaterThan(20);
    // Artifact mentions were found (so skillIO's rebuilt parent was read, not an empty one).
    expect(out.mentions).toBeGreaterThan(0);
    // The TF-IDF vectors and nearest skills are those the graph computes, and there are some.
    expect(out.model).toBe(true);
    expect(out.neighbours).toBeGreaterThan(10);
  });
});
