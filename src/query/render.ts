/**
 * Formatters for a query result: pure functions of the data. Markdown is what an agent reads (a
 * one-line preamble, then each hit's header and bundle, separated by rules); JSON carries the same
 * plus every score, for tools.
 */
import { stableStringify } from '../util/stable-json.js';
import { LISTED_HEADING, SEPARATOR } from './hydrate.js';
import type { QueryResult } from './retriever.js';

export function preamble(query: string, hits: number, charged: number, budget: number): string {
  return `<!-- skillc query ${JSON.stringify(query).replace(/--/g, '- -')}: ${hits} hit${hits === 1 ? '' : 's'}, at most ${charged} of ${budget} tokens (o200k_base) -->\n\n`;
}

export function renderQueryMarkdown(r: QueryResult): string {
  if (r.status === 'NO_SKILL_HIT') return `NO_SKILL_HIT: no skill matches ${JSON.stringify(r.query)} (${r.reason}).\n`;
  const full = r.hits.filter((h) => h.hydration !== 'listed');
  const listed = r.hits.filter((h) => h.hydration === 'listed');
  let out = preamble(r.query, r.hits.length, r.tokens.charged, r.tokens.budget) + full.map((h) => h.text.replace(/\s*$/, '\n')).join(SEPARATOR);
  if (listed.length > 0) out += `${full.length > 0 ? SEPARATOR : ''}${LISTED_HEADING}${listed.map((h) => h.text).join('')}`;
  return out;
}

export function renderQueryJson(r: QueryResult): string {
  return stableStringify({
    ...r,
    hits: r.hits.map((h) => ({
      rank: h.rank,
      id: h.node.id,
      path: h.node.path,
      name: h.node.name,
      source: h.node.source,
      bundle: h.node.bundle,
      score: h.score,
      scores: h.scores,
      via: h.via,
      hydration: h.hydration,
      cost: h.cost,
      text: h.text,
    })),
  });
}
