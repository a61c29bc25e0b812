/**
 * Formatters for a query result: pure functions of the data. Markdown is what an agent reads (a
 * one-line preamble, then each hit's header and bundle, separated by rules); JSON carries the same
 * plus every score, for tools.
 *
 * The markdown echoes the query only as a short quote (`quoteQuery`): the preamble is charged to
 * the budget, so a query of 100,000 characters echoed whole would leave no room for the hits it
 * asked for. JSON keeps the whole query (it is data, and `tokens.charged` counts the markdown).
 */
import { escapeInline } from '../text/terminal.js';
import { queryWords, rankedPart } from './rank.js';
import { unreadWords } from '../text/tokens.js';
import { countCodePoints, cutAtCodePoints } from '../text/code-points.js';
import { stableStringify } from '../util/stable-json.js';
import { o200kTokenCounter } from '../text/o200k.js';
import { firstSentence, LISTED_HEADING, SEPARATOR, tokenBound, unlistedLine, type HydratedHit } from './hydrate.js';
import type { PlanResult, QueryResult } from './retriever.js';
import type { StepReason } from './plan.js';
import type { ParentNode } from '../graph/types.js';

/** Characters of the query quoted in the markdown; the rest is counted, not shown. */
export const QUOTED_QUERY_CHARS = 200;

/**
 * The query as the markdown shows it: JSON-quoted, at most QUOTED_QUERY_CHARS code points then
 * "… (N characters)", and the control and bidirectional characters JSON leaves raw escaped. Its
 * length is bounded whatever the query, and so is the preamble's charge.
 */
export function quoteQuery(query: string, maxChars = QUOTED_QUERY_CHARS): string {
  let shown = query;
  let note = '';
  if (query.length > maxChars) {
    const cut = cutAtCodePoints(query, maxChars);
    if (cut < query.length) {
      shown = query.slice(0, cut);
      note = `… (${countCodePoints(query)} characters)`;
    }
  }
  return escapeInline(JSON.stringify(shown)) + note;
}

/**
 * The answer's first line: what was asked, how many hits (or plan steps) and the tokens charged;
 * then, when some of the task's words are in no skill, a line that names them (unknownNote).
 */
export function preamble(query: string, hits: number, charged: number, budget: number, kind: 'query' | 'plan' = 'query', unknownTerms: readonly string[] = [], coverage = 1): string {
  const unit = kind === 'plan' ? 'step' : 'hit';
  // No two dashes in a row survive, so nothing in the query can close the comment ("--->" included).
  const head = (quoted: number) => `<!-- skillc ${kind} ${quoteQuery(query, quoted).replace(/-(?=-)/g, '- ')}: ${hits} ${unit}${hits === 1 ? '' : 's'}, at most ${charged} of ${budget} tokens (o200k_base) -->\n\n`;
  const full = head(QUOTED_QUERY_CHARS) + unreadNote(query) + unknownNote(query, unknownTerms, coverage);
  // The quoted task and the notes (up to eight words each) could take most of a small budget, or
  // more, with long or foreign words. Over half the budget (o200k, the counter the answer is
  // charged with, loaded by then), the task is quoted shorter and the notes give counts.
  if (tokenBound(full) <= budget / 2 || o200kTokenCounter()(full) <= budget / 2) return full;
  return head(COMPACT_QUOTED_QUERY_CHARS) + unreadNote(query, true) + unknownNote(query, unknownTerms, coverage, true);
}

/** Characters of the query a compact preamble quotes (see preamble). */
const COMPACT_QUOTED_QUERY_CHARS = 60;

/**
 * Words of the task in a script the index does not read (it holds words in Latin letters): said,
 * so that an answer to `将PDF转换为Word文档` is not taken for one that read the whole task.
 */
export function unreadNote(query: string, compact = false): string {
  const unread = unreadWords(rankedPart(query));
  if (unread.length === 0) return '';
  return compact ? `> The index holds words in Latin letters only; ${unread.length} word${unread.length === 1 ? ' was' : 's were'} not read.\n\n` : `> The index holds words in Latin letters only; not read: ${wordList(unread)}.\n\n`;
}

/** Task words a note names: the first UNKNOWN_WORDS_SHOWN, each cut to UNKNOWN_WORD_CHARS, escaped, and how many more. */
export function wordList(words: readonly string[]): string {
  const shown = words.slice(0, UNKNOWN_WORDS_SHOWN).map((w) => escapeInline(w.slice(0, UNKNOWN_WORD_CHARS)));
  return `${shown.join(', ')}${words.length > shown.length ? ` and ${words.length - shown.length} more` : ''}`;
}

/** Words of the task an unknown-words note names at most, and the characters shown of each. */
const UNKNOWN_WORDS_SHOWN = 8;
const UNKNOWN_WORD_CHARS = 24;
/** Task words a plan step's line names at most (each cut to UNKNOWN_WORD_CHARS): why it is a step, in a few words. */
const SERVES_SHOWN = 6;

/**
 * Which of the task's words no skill holds, as the task wrote them, and how much of the rest the
 * best hit covers: '' when the library holds every word. Coverage leaves such words out (a file
 * name or an id in a long instruction is in no skill), so an off-topic task ("knit a cable
 * sweater") still gets hits; this line lets the agent see what they were not matched on.
 */
export function unknownNote(query: string, unknownTerms: readonly string[], coverage: number, compact = false): string {
  if (unknownTerms.length === 0) return '';
  const unknown = new Set(unknownTerms);
  // The unknown words, and whether they are most of the task, counted in the words it types
  // (`PowerPoint` is one word, though three terms): a typed word is unknown when none of its terms
  // is in a skill. A typed word's content words are the query's own there (words never cross a blank
  // or a punctuation mark).
  const unknownWords = new Set<string>();
  let unknownTyped = 0;
  const known: string[] = [];
  for (const typed of new Set(rankedPart(query).match(/[^\s"'`()[\]{}<>,;:!?]+/g) ?? [])) {
    const words = queryWords(typed);
    if (words.length === 0) continue;
    for (const w of words) if (unknown.has(w.term)) unknownWords.add(w.word);
    if (words.every((w) => unknown.has(w.term))) unknownTyped++;
    else known.push(typed.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, ''));
  }
  const named = [...unknownWords];
  if (named.length === 0) return '';
  const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
  const head = compact
    ? `> ${named.length} ${plural(named.length, 'word', 'words')} of the task ${plural(named.length, 'is', 'are')} in no skill of the library.`
    : `> No skill in the library holds ${plural(named.length, 'the word', 'these words')} of the task: ${wordList(named)}.`;
  // When those are most of the task, "covers 100% of the other words" would read as a good match:
  // say what the hits were matched on, and that they may not be what the task asks for.
  if (unknownTyped >= known.length) {
    const matched = compact ? `${known.length} other ${plural(known.length, 'word', 'words')}` : `${plural(known.length, 'the word', 'the words')} ${wordList(known)}`;
    return `${head} The hits match only ${matched}, and may not be what the task asks for: check its spelling, or the library may have no skill for it.\n\n`;
  }
  return `${head} The best hit covers ${Math.round(coverage * 100)}% of the weight of the other words.\n\n`;
}

export function renderQueryMarkdown(r: QueryResult): string {
  if (r.status === 'NO_SKILL_HIT') return `NO_SKILL_HIT: no skill matches ${quoteQuery(r.query)} (${r.reason}).\n`;
  const full = r.hits.filter((h) => h.hydration !== 'listed');
  const listed = r.hits.filter((h) => h.hydration === 'listed');
  let out = preamble(r.query, r.hits.length, r.tokens.charged, r.tokens.budget, 'query', r.unknownTerms, r.coverage) + full.map((h) => h.text.replace(/\s*$/, '\n')).join(SEPARATOR);
  if (listed.length > 0 || r.unlisted) out += `${full.length > 0 ? SEPARATOR : ''}${LISTED_HEADING}${listed.map((h) => h.text).join('')}`;
  if (r.unlisted) out += unlistedLine(r.unlisted, r.hits.length + 1);
  return out;
}

export interface OutlineStep {
  readonly node: ParentNode;
  readonly role: 'match' | 'prerequisite';
  readonly after: readonly StepReason[];
  readonly feeds: readonly StepReason[];
  readonly serves: readonly string[];
}

/**
 * The numbered steps, one line each: name, source, what the skill does (its description's first
 * sentence, bounded), the task's words it serves (at most SERVES_SHOWN), and the earlier steps it
 * follows with the edge that says so. Then the
 * contracts the steps invoke, each named once (its text follows the outline when it fits the budget).
 */
export function planOutline(steps: readonly OutlineStep[]): string {
  const lines = steps.map((s, i) => {
    const n = s.node;
    const what = firstSentence(n.description);
    const after = s.after.map((a) => `after step ${a.step} (${a.type}: ${escapeInline(a.detail)})`);
    // A prerequisite says what it is for; a match that feeds a later step says so through that step's "after".
    const feeds = s.role === 'prerequisite' ? s.feeds.map((f) => `feeds step ${f.step} (${f.type}: ${escapeInline(f.detail)})`) : [];
    const why = [...after, ...feeds].join('; ');
    const serves = s.serves.length === 0 ? '' : ` (for: ${s.serves.slice(0, SERVES_SHOWN).map((w) => escapeInline(w.slice(0, UNKNOWN_WORD_CHARS))).join(', ')}${s.serves.length > SERVES_SHOWN ? ', …' : ''})`;
    return `${i + 1}. **${escapeInline(n.name)}** (\`${escapeInline(n.bundle)}\`)${what ? `: ${escapeInline(what)}` : ''}${serves}${why ? ` [${why}]` : ''}\n`;
  });
  const invoked = [...new Set(steps.flatMap((s) => s.node.invokes))];
  const named = invoked.map((id) => {
    const at = stepsOf(steps, id);
    return `\`${escapeInline(id)}\` (step${at.length === 1 ? '' : 's'} ${at.join(', ')})`;
  });
  const contracts = invoked.length === 0 ? '' : `\nContracts the steps invoke, each stated once: ${named.join(', ')}\n`;
  // Steps no edge ties to an earlier one follow the task's wording; an agent should not read a data flow into that.
  const unordered = steps.length > 1 && steps.slice(1).some((s) => s.after.length === 0);
  const note = unordered ? `\nA step with no "after" note is placed where the task names what it is for: no dep or wf edge ties it to an earlier step.\n` : '';
  return `# Plan: ${steps.length} step${steps.length === 1 ? '' : 's'}\n\n${lines.join('')}${note}${contracts}`;
}

function stepsOf(steps: readonly OutlineStep[], id: string): number[] {
  return steps.flatMap((s, i) => (s.node.invokes.includes(id) ? [i + 1] : []));
}

/** Outline, the contracts once, then each step's bundle in order, as `query` shows hits. */
export function renderPlanMarkdown(r: PlanResult): string {
  if (r.status === 'NO_SKILL_HIT') return `NO_SKILL_HIT: no skill matches ${quoteQuery(r.query)} (${r.reason}).\n`;
  let out = preamble(r.query, r.steps.length, r.tokens.charged, r.tokens.budget, 'plan', r.unknownTerms, r.coverage) + planOutline(r.steps);
  // A contract over the budget is named in the outline (with its file) and not stated.
  out += r.contracts.filter((c) => c.hydration === 'full').map((c) => SEPARATOR + c.text).join('');
  const full = r.steps.filter((h) => h.hydration !== 'listed');
  const listed = r.steps.filter((h) => h.hydration === 'listed');
  out += full.map((h) => SEPARATOR + h.text.replace(/\s*$/, '\n')).join('');
  // Steps over the budget are in the outline with their files; the answer says which they are.
  if (listed.length > 0) out += `${SEPARATOR}${overBudgetSteps(listed.map((h) => h.rank))}`;
  return out;
}

/** The line that names the steps whose text is over the budget (the outline gives their files). */
export function overBudgetSteps(steps: readonly number[]): string {
  return `Over the budget, not shown (the outline above gives their files): step${steps.length === 1 ? '' : 's'} ${steps.join(', ')}.\n`;
}

export function renderPlanJson(r: PlanResult): string {
  return stableStringify({
    ...r,
    steps: r.steps.map((h) => {
      const { rank, ...fields } = hitFields(h);
      return { step: rank, ...fields, role: h.role, after: h.after, feeds: h.feeds, serves: h.serves, invokes: h.invokes };
    }),
  });
}

export function renderQueryJson(r: QueryResult): string {
  return stableStringify({ ...r, hits: r.hits.map(hitFields) });
}

/** A hydrated hit as JSON shows it: where it is, its scores, and its text. */
function hitFields(h: HydratedHit) {
  return {
    rank: h.rank,
    id: h.node.id,
    path: h.node.path,
    name: h.node.name,
    source: h.node.source,
    bundle: h.node.bundle,
    score: h.score,
    scores: h.scores,
    via: h.via,
    ...(h.alsoAt ? { alsoAt: h.alsoAt } : {}),
    ...(h.versions ? { versions: h.versions } : {}),
    hydration: h.hydration,
    cost: h.cost,
    text: h.text,
  };
}
