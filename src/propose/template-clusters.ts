/**
 * Clusters from author templates (issue 19 item 1): every action template with placeholders that
 * two or more skills write (spellings grouped by extract/author-templates.ts), with the units that
 * write it and the units whose concrete action lines match it. Such a cluster is one action —
 * `take {object} from {receptacle}` — however different the sections around it are, so it is
 * found by its text, not by the similarity of whole sections.
 */
import type { Cluster, Parent } from '../ir/types.js';
import { actionLineTexts, type ActionLineText } from '../extract/action-lines.js';
import { authorTemplateOf, matchConcrete, stripActionLabel, unifySpellings, type AuthorTemplate } from '../extract/author-templates.js';
import { sha256 } from '../util/hash.js';
import { words } from '../text/tokens.js';
import type { VerbLexicon } from './lexicon.js';

/** Templates past this many are not proposed (largest groups first): a bound on hostile input. */
const MAX_TEMPLATE_CLUSTERS = 500;

export function templateClusters(parents: readonly Parent[], eligible: (p: Parent) => boolean, lexicon: VerbLexicon): Cluster[] {
  const occurrences = new Map<string, { spelling: AuthorTemplate; unit: string; parent: string; source: ActionLineText['source'] }[]>();
  const byFirstWord = new Map<string, { line: ActionLineText; parent: string }[]>();
  const order = new Map<string, number>();
  for (const p of parents) {
    if (!eligible(p)) continue;
    for (const u of p.units) {
      order.set(u.id, order.size);
      for (const line of actionLineTexts(u)) {
        const t = authorTemplateOf(line);
        if (t) {
          let list = occurrences.get(t.key);
          if (!list) occurrences.set(t.key, (list = []));
          list.push({ spelling: t, unit: u.id, parent: p.path, source: line.source });
          continue;
        }
        const first = firstWord(stripActionLabel(line.text));
        if (first === '') continue;
        let list = byFirstWord.get(first);
        if (!list) byFirstWord.set(first, (list = []));
        list.push({ line, parent: p.path });
      }
    }
  }
  const clusters: Cluster[] = [];
  const keys = [...occurrences.keys()].filter((k) => new Set(occurrences.get(k)!.map((o) => o.parent)).size >= 2).sort();
  for (const key of keys) {
    const occ = occurrences.get(key)!;
    const { template, slots } = unifySpellings(occ.map((o) => o.spelling));
    const t = { template, slots };
    const units = new Map<string, string>(occ.map((o) => [o.unit, o.parent]));
    for (const { line, parent } of byFirstWord.get(firstWord(occ[0]!.spelling.pieces[0]!)) ?? []) {
      if (!units.has(line.unit) && matchConcrete(t, line.text) !== null) units.set(line.unit, parent);
    }
    if (units.size < 2) continue;
    const ids = [...units.keys()].sort((a, b) => order.get(a)! - order.get(b)!);
    const verbWord = words(template).find((w) => lexicon.classOf(w) !== undefined);
    clusters.push({
      id: `c-${sha256(`template\n${key}\n${ids.join('\n')}`).slice(0, 12)}`,
      units: ids,
      parents: [...new Set(units.values())].sort(),
      verb: verbWord ? lexicon.classOf(verbWord)! : 'run',
      objects: [...new Set(slots)].slice(0, 3),
      minLinkCosine: 1,
      origin: 'author-template',
      template: { template, slots, source: occ[0]!.source, spellings: [...new Set(occ.map((o) => o.spelling.written.join(' ')))].sort().slice(0, 8) },
    });
  }
  clusters.sort((a, b) => b.units.length - a.units.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return clusters.slice(0, MAX_TEMPLATE_CLUSTERS);
}

function firstWord(text: string): string {
  return (/^\s*(\S+)/.exec(text)?.[1] ?? '').toLowerCase();
}
