/**
 * Worker entry for text-facts.ts: per skill, the o200k count of its text, the term counts of its
 * body and its artifact mentions, from what the main thread sends (its path, frontmatter text and
 * skillIOInput, which holds everything skillIO reads); then the bodies' TF-IDF vectors and each
 * skill's nearest skills. The same functions rendering calls.
 */
import { parentPort } from 'node:worker_threads';
import type { Parent } from '../ir/types.js';
import { loadTokenCounter } from '../text/bpe.js';
import { buildTfidfFromCounts, indexTermCounts } from '../propose/tfidf.js';
import { nearestParents } from '../graph/edges/sem.js';
import { parentNodeId } from '../graph/types.js';
import { loadArtifactLexicon, skillIO } from '../graph/artifacts.js';
import type { TextFactsRequest } from './text-facts.js';

/** skillIOInput's shape: file, description, YAML line, and per unit its text, heading, kind, line, start and code blocks' line, start and end. */
type IOInput = [string, string | null, number, [string, string | null, string, number, number, [number, number, number][]][]];

/** The parent skillIO reads, rebuilt from its skillIOInput (graph/artifacts.ts). */
function parentOf(input: IOInput): Parent {
  const [file, description, yamlLine, units] = input;
  return {
    file,
    frontmatter: { data: description === null ? {} : { description }, yamlLine },
    units: units.map(([text, heading, kind, line, start, blocks]) => ({ text, heading, kind, line, start, codeBlocks: blocks.map(([l, s, e]) => ({ line: l, start: s, end: e })) })),
  } as unknown as Parent;
}

parentPort?.once('message', (skills: TextFactsRequest[]) => {
  void (async () => {
    try {
      const count = await loadTokenCounter();
      const lex = loadArtifactLexicon();
      const tokens: number[] = [];
      const bodyCounts = [];
      const io = [];
      for (const s of skills) {
        const p = parentOf(JSON.parse(s.ioInput) as IOInput);
        const body = p.units.map((u) => u.text).join('');
        tokens.push(count(s.frontmatter + body));
        bodyCounts.push(indexTermCounts(body));
        io.push(skillIO(p, lex));
      }
      // The graph's body model, from these very counts: the TF-IDF vectors and each skill's nearest skills.
      const vectors = buildTfidfFromCounts(bodyCounts).vectors;
      const nearest = nearestParents(vectors, skills.map((s) => parentNodeId(s.path)));
      parentPort!.postMessage({ tokens, bodyCounts, io, vectors, nearest });
    } catch (err) {
      parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
    }
  })();
});
