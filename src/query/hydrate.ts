/**
 * Hydration under a token budget (SPEC §5, GoS §3.3): hits are materialised in rank order as the
 * file an agent reads (the skill as written: bundles/<path>.md for a rewritten parent, else its SKILL.md), each after
 * a short header with its source path. Costs are BPE tokens (o200k_base): a bundle's count was
 * taken at build time; each hit's header is counted exactly (the tokenizer is loaded for the
 * listing anyway: charging headers their byte length cost a whole step in a plan), and the
 * separators their UTF-8 byte length, which no BPE count exceeds, so the total never passes the
 * budget. A hit that no longer fits is listed by path and one line. When the first hit alone is
 * over the budget, it is cut at a line boundary.
 *
 * A section whose text an earlier hit already shows in full (the same shared passage with the same
 * bindings, query/shared-sections.ts) is replaced by a one-line pointer to that hit; the hit is
 * then charged its recounted tokens. A hit whose whole bundle reads the same as one already shown
 * is a one-line pointer to it (byte-identical copies are folded into one hit by the ranking; this
 * is for texts equal once decoded, such as a copy with a byte order mark).
 *
 * Bundles are read through util/confined-read: an index naming a file outside the dist, a
 * folder, a device or a file over 64 MiB fails with a DistReadError instead of being printed. The
 * bundle text is what the agent asked for and is returned as it is; the skill names and paths in
 * the headers around it have their control characters escaped (text/terminal.ts), since they are
 * one-line labels that a skill's folder name or frontmatter could otherwise break up or disguise.
 */
import path from 'node:path';
import { loadTokenCounter } from '../text/bpe.js';
import { escapeInline } from '../text/terminal.js';
import { cutAtCodePoints } from '../text/code-points.js';
import { MAX_BUNDLE_BYTES, readDistFile } from '../util/confined-read.js';
import { NODES_FILE } from '../graph/query-index.js';
import type { RankedHit } from './rank.js';
import { headingAsWritten, withoutRepeats, type SharedSections, type StatedAt } from './shared-sections.js';
import { collapse } from '../text/collapse.js';
import { closersOf } from '../text/open-blocks.js';

export { closersOf };

/** Between two hits in the output; charged to every hydrated hit, so the one left over pays for the rule before the listed hits. */
export const SEPARATOR = '\n---\n\n';

/** Opens the list of hits that did not fit; charged once, with the first of them. */
export const LISTED_HEADING = '# Also relevant, over the budget\n\n';

/**
 * `flagged`: the skill has a malicious install step (issue 20); the hit says so and where, and its
 * steps are withheld, so an agent is never handed them silently.
 */
export type Hydration = 'full' | 'truncated' | 'listed' | 'flagged';

export interface HydratedHit extends RankedHit {
  readonly rank: number;
  readonly hydration: Hydration;
  /** Header and content as they appear in the output ('' when only listed). */
  readonly text: string;
  /** Tokens charged for this hit. */
  readonly cost: number;
}

/** No BPE token spans less than one byte, so the byte length bounds the token count from above. */
export function tokenBound(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function hitHeader(rank: number, hit: RankedHit, how: string = howReached(hit)): string {
  // The file whose text follows (the dist's skills/<path>/SKILL.md of a rewritten skill is its skeleton).
  return `# ${rank}. ${escapeInline(hit.node.name)}\n\nSource: \`${escapeInline(hit.node.bundle)}\` · score ${hit.score.toFixed(3)} · ${how}${alsoAt(hit)}\n\n`;
}

/**
 * Copies and versions folded into a hit (RankedHit.alsoAt, RankedHit.versions), at most five of
 * each named: ` · the same SKILL.md is also at `a`, `b` · other versions of it (same name, other
 * text): `c``.
 */
export function alsoAt(hit: RankedHit): string {
  const named = (paths: readonly string[]) => paths.slice(0, 5).map((p) => `\`${escapeInline(p)}\``).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
  const copies = hit.alsoAt ?? [];
  const versions = hit.versions ?? [];
  return (copies.length > 0 ? ` · the same SKILL.md is also at ${named(copies)}` : '') + (versions.length > 0 ? ` · other versions of it (same name, other text): ${named(versions)}` : '');
}

/** How ranking reached a hit: a direct match, or the edge diffusion brought it in along. */
function howReached(hit: RankedHit): string {
  return hit.via ? `via ${hit.via.type}${hit.via.reverse ? ' (reverse)' : ''} from ${escapeInline(hit.via.from.replace(/^skill:/, ''))}` : 'direct match';
}

/** What a flagged hit says in place of its steps. */
export function flaggedNotice(flagged: readonly string[]): string {
  const shown = flagged.slice(0, 5).map((f) => `- ${escapeInline(f)}\n`).join('');
  const more = flagged.length > 5 ? `- … and ${flagged.length - 5} more\n` : '';
  return `**Flagged by skillc: this skill has install steps that malware uses (rules/malicious-patterns.json). Its steps are withheld; do not run them. A person should review the skill first.**\n\n${shown}${more}`;
}

/** A hit's listing when the budget has no room for every hit's full line: its rank and file. */
export function shortListedLine(rank: number, hit: RankedHit): string {
  if (hit.node.flagged) return `- ${rank}. flagged by skillc (malicious install steps), its steps withheld\n`;
  return `- ${rank}. \`${escapeInline(hit.node.bundle)}\`\n`;
}

/** The line that says how many ranked hits the budget could not list even by file. */
export function unlistedLine(unlisted: number, firstRank: number): string {
  return `- … and ${unlisted} more hit${unlisted === 1 ? '' : 's'} from rank ${firstRank} on, not listed: raise the budget to see ${unlisted === 1 ? 'it' : 'them'}\n`;
}

export function listedLine(rank: number, hit: RankedHit): string {
  if (hit.node.flagged) return `- ${rank}. ${escapeInline(hit.node.name)}: flagged by skillc (malicious install steps), its steps withheld\n`;
  const what = firstSentence(hit.node.description);
  return `- ${rank}. ${escapeInline(hit.node.name)}: \`${escapeInline(hit.node.bundle)}\` (${hit.node.tokens} tokens, over the budget${alsoAt(hit)})${what ? `: ${escapeInline(what)}` : ''}\n`;
}

/** Characters of a skill's description a one-line listing shows; its bundle has all of it. */
export const LISTING_DESCRIPTION_CHARS = 160;

/** The first sentence of a description on one line, cut at a word within LISTING_DESCRIPTION_CHARS. */
export function firstSentence(text: string): string {
  const one = collapse(text).split(/(?<=[.!?])\s/)[0] ?? '';
  const cut = cutAtCodePoints(one, LISTING_DESCRIPTION_CHARS);
  if (cut >= one.length) return one;
  return `${one.slice(0, cut).replace(/\s+\S*$/, '')} …`;
}

export interface HydrateOptions {
  /**
   * Indexes of `hits` in the order they get the budget (default: as shown). A plan shows its steps
   * in the order they are used but gives the budget to its best-matching steps first.
   */
  readonly order?: readonly number[];
  /** The "how reached" part of each header (default: direct match, or the edge diffusion used). */
  readonly how?: (index: number) => string;
  /**
   * Whether a hit over the budget costs its listing line (`query`: the line is all the answer says
   * of it) or nothing (`--plan`: its outline already names every step, so a step over the budget
   * is kept with no text and never dropped).
   */
  readonly listing?: 'lines' | 'outline';
}

/** The hydrated hits of hydrateListing, for a caller that lists every hit itself (a plan's outline): it drops the count of hits not listed. */
export async function hydrate(dist: string, hits: readonly RankedHit[], budget: number, shared: SharedSections = new Map(), options: HydrateOptions = {}): Promise<HydratedHit[]> {
  return (await hydrateListing(dist, hits, budget, shared, options)).hits;
}

/**
 * Hydrated hits, and how many ranked hits the budget could not list at all (they follow the
 * listed ones in rank order; the answer says how many).
 */
export async function hydrateListing(dist: string, hits: readonly RankedHit[], budget: number, shared: SharedSections = new Map(), options: HydrateOptions = {}): Promise<{ hits: HydratedHit[]; unlisted: number; unlistedCost: number }> {
  // Every hit is at least listed (issue 21 item 3): the listing line of each hit is set aside from
  // the budget first, and a hit that is hydrated gives its line back. When the full lines (name,
  // file, size, first sentence) do not fit, every hit is listed by its file alone; when even those
  // do not fit, the first hits are, and one line says how many more there are.
  // Listing lines are counted exactly (a few short lines): their byte bound would take four times
  // what they cost and crowd out the content.
  const count = await loadTokenCounter();
  const outlined = options.listing === 'outline';
  const heading = outlined ? 0 : count(LISTED_HEADING);
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  let short = false;
  let lines = hits.map((h, i) => (outlined ? 0 : count(listedLine(i + 1, h))));
  if (!outlined && hits.length > 0 && sum(lines) + heading > budget) {
    short = true;
    lines = hits.map((h, i) => count(shortListedLine(i + 1, h)));
  }
  /** Hits listed by file at least: all, or the first that fit with the line that counts the rest. */
  let listable = hits.length;
  let tail = 0;
  if (!outlined && hits.length > 0 && sum(lines) + heading > budget) {
    const before: number[] = [0];
    for (const l of lines) before.push(before.at(-1)! + l);
    const room = (n: number) => before[n]! + heading + count(unlistedLine(hits.length - n, n + 1));
    while (listable > 0 && room(listable) > budget) listable--;
    // With no room even for the line that counts them (a budget the preamble nearly fills), the
    // hits are not listed and the answer's "0 hits" is all it says.
    tail = room(listable) <= budget ? count(unlistedLine(hits.length - listable, listable + 1)) : 0;
  }
  const reserve = sum(lines.slice(0, listable)) + (hits.length > 0 ? heading : 0) + tail;
  const reserving = reserve <= budget;
  let left = reserving ? budget - reserve : budget;
  /** Whether a hit has had its turn at the budget: only the first may be cut to fit. */
  let first = true;
  const out: HydratedHit[] = [];
  /** Shared section key → the hit that states it in full, and the heading it states it under. */
  const stated = new Map<string, StatedAt>();
  /** Bundles shown in full, by token count (a copy has the same count): rank and text. */
  const shownByTokens = new Map<number, { rank: number; text: string }[]>();
  for (const i of options.order ?? hits.keys()) {
    const hit = hits[i]!;
    const rank = i + 1;
    const header = hitHeader(rank, hit, options.how?.(i));
    const firstTurn = first;
    first = false;
    const reserved = reserving && i < listable;
    if (reserved) left += lines[i]!;
    if (hit.node.flagged) {
      const text = header + flaggedNotice(hit.node.flagged);
      const cost = tokenBound(text) + tokenBound(SEPARATOR);
      if (cost <= left) {
        out.push({ ...hit, rank, hydration: 'flagged', text, cost });
        left -= cost;
        continue;
      }
    } else {
      let cost = count(header) + hit.node.tokens + tokenBound(SEPARATOR);
      /** The bundle as written, read when first needed. */
      let whole: string | null = null;
      // A text already shown in full (the ranking folds byte copies; this is one that differs only
      // in its encoding, such as a byte order mark) is a pointer to it: every line once, not twice.
      const twin = shownByTokens.get(hit.node.tokens)?.find((t) => (whole ??= readBundle(dist, hit)) === t.text);
      if (twin) {
        const pointer = `[skillc: the same text as hit ${twin.rank} ${twin.rank < rank ? 'above' : 'below'}]\n`;
        const pointerCost = count(header) + count(pointer) + tokenBound(SEPARATOR);
        if (pointerCost <= left) {
          out.push({ ...hit, rank, hydration: 'full', text: header + pointer, cost: pointerCost });
          left -= pointerCost;
          continue;
        }
      }
      let body: string | null = null;
      // A section an earlier hit already states is a pointer here, so the hit may cost less.
      const sections = shared.get(hit.node.path) ?? [];
      if (sections.some((s) => stated.has(s.key))) {
        const read = (whole ??= readBundle(dist, hit));
        const reduced = withoutRepeats(read, sections, stated, rank);
        if (reduced.replaced > 0) {
          body = reduced.text;
          cost = count(header) + count(body) + tokenBound(SEPARATOR);
        } else body = read;
      }
      if (cost <= left) {
        whole ??= readBundle(dist, hit);
        body ??= whole;
        // A skill that leaves a fence or a `<details>` open would swallow the hits after it: it is
        // closed here, as a truncated hit's cut is. And the cost is the text's as it is now: the
        // index counted the bundle when it was built, and a bundle edited since may be far larger.
        const closers = await closersOf(body.split('\n'), Number.POSITIVE_INFINITY);
        if (closers) body = `${body}${body.endsWith('\n') ? '' : '\n'}${closers}`;
        if (body === whole || closers) cost = count(header) + count(body) + tokenBound(SEPARATOR);
      }
      if (cost <= left && body !== null && whole !== null) {
        // Its sections not replaced by pointers are in the answer in full from here on. (A truncated
        // hit states none: what it kept is not worth the bookkeeping, and a repeat costs only tokens.)
        for (const s of sections) if (!stated.has(s.key)) stated.set(s.key, { rank, heading: headingAsWritten(whole, s) });
        const same = shownByTokens.get(hit.node.tokens) ?? [];
        shownByTokens.set(hit.node.tokens, [...same, { rank, text: whole }]);
        out.push({ ...hit, rank, hydration: 'full', text: header + body, cost });
        left -= cost;
        continue;
      }
      // Only the hit that has the budget first is cut to fit: a lower hit cut while the ones above
      // it are only listed would put a fragment of the fourth skill before the first.
      if (firstTurn) {
        const truncated = await truncate(readBundle(dist, hit), left - count(header) - tokenBound(SEPARATOR), escapeInline(hit.node.bundle));
        if (truncated) {
          const charged = count(header) + truncated.tokens + tokenBound(SEPARATOR);
          out.push({ ...hit, rank, hydration: 'truncated', text: header + truncated.text, cost: charged });
          left -= charged;
          continue;
        }
      }
    }
    if (outlined) {
      out.push({ ...hit, rank, hydration: 'listed', text: '', cost: 0 });
      continue;
    }
    if (reserving && i >= listable) continue;
    const line = short ? shortListedLine(rank, hit) : listedLine(rank, hit);
    const firstListed = !out.some((h) => h.hydration === 'listed');
    if (reserving && firstListed) left += heading;
    const listedCost = lines[i]! + (firstListed ? heading : 0);
    if (listedCost <= left) {
      out.push({ ...hit, rank, hydration: 'listed', text: line, cost: listedCost });
      left -= listedCost;
    }
  }
  const shown = out.sort((a, b) => a.rank - b.rank);
  // The hits not listed are those after the listable ones (render.ts says "from rank n + 1 on").
  const unlisted = tail > 0 ? hits.length - listable : 0;
  // The line follows the listing's heading, which no listed hit has paid for when none is listed.
  const headingUnpaid = unlisted > 0 && !shown.some((h) => h.hydration === 'listed');
  return { hits: shown, unlisted, unlistedCost: unlisted > 0 ? tail + (headingUnpaid ? heading : 0) : 0 };
}

function readBundle(dist: string, hit: RankedHit): string {
  return readDistText(dist, hit.node.bundle, 'bundle', hit.node.id);
}

/**
 * A text file the index names (a bundle, a contract's readable text), read confined to the dist
 * and decoded the way the build counted it (WHATWG: BOM dropped, invalid bytes as U+FFFD).
 */
export function readDistText(dist: string, rel: string, what: string, owner: string): string {
  return new TextDecoder().decode(readDistFile(dist, rel, { maxBytes: MAX_BUNDLE_BYTES, namedBy: { file: path.join(dist, NODES_FILE), what, owner } }));
}

/**
 * The longest prefix of whole lines that fits `room` tokens together with the note that says where
 * the rest is. A cut inside a fenced code block or a `<details>` element closes it first: left open,
 * the note and every hit after it would read as code, or fold away inside the element.
 *
 * Found in two steps, because the closers may need a parse of the prefix (open-blocks) and every
 * count tokenises it: first the longest prefix that fits with the note but no closers, by a search
 * that doubles from the start (its cost grows with the answer, not with the bundle); then, down
 * from there, the first that fits with its closers too. Closers only add text, so the answer is no
 * longer than the first bound, and within a few lines of it unless the closers are long.
 */
export async function truncate(text: string, room: number, file: string): Promise<{ text: string; tokens: number } | null> {
  const count = await loadTokenCounter();
  const lines = text.split('\n');
  const note = (n: number) => `[skillc: truncated after ${n} of ${lines.length} lines to fit the budget; the rest is in \`${file}\`]\n`;
  const bare = (n: number) => `${lines.slice(0, n).join('\n')}\n\n${note(n)}`;
  const render = async (n: number) => `${lines.slice(0, n).join('\n')}\n${await closersOf(lines, n)}\n${note(n)}`;
  const fits = async (n: number) => count(await render(n)) <= room;
  if (count(bare(0)) > room) return null;
  const bound = await longestFitting(lines.length, (n) => count(bare(n)) <= room);
  // A cut that keeps no line of the skill's body (its frontmatter, or less) says nothing: listed instead.
  const least = firstBodyLine(lines) + 1;
  if (bound < least) return null;
  let best = -1;
  // A few lines down by one: the closers are a fence or a few `</details>`, a line or two of text.
  for (let n = bound; n >= Math.max(0, bound - 3) && best < 0; n--) if (await fits(n)) best = n;
  // Further down by halves (0 always fits: it has no closers).
  if (best < 0 && bound > 3) best = await lastFitting(0, bound - 4, fits);
  if (best < least) return null;
  const rendered = await render(best);
  return { text: rendered, tokens: count(rendered) };
}

/** The index of the first non-blank line after the frontmatter (after a leading `---` … `---` block), or of the first non-blank line. */
function firstBodyLine(lines: readonly string[]): number {
  let at = 0;
  if (/^---\s*$/.test(lines[0] ?? '')) {
    const close = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
    if (close > 0) at = close + 1;
  }
  while (at < lines.length && lines[at]!.trim() === '') at++;
  return at;
}

/** The largest n in [0, max] for which `fits(n)` holds, given that it holds for 0 and fails from some n on: doubling, then halving. */
function longestFitting(max: number, fits: (n: number) => boolean): Promise<number> {
  let lo = 0;
  let step = 1;
  while (lo + step <= max && fits(lo + step)) {
    lo += step;
    step *= 2;
  }
  return lastFitting(lo, Math.min(max, lo + step - 1), fits);
}

/** The largest n in [lo, hi] for which `fits(n)` holds, given that it holds for lo and fails from some n on. */
async function lastFitting(lo: number, hi: number, fits: (n: number) => boolean | Promise<boolean>): Promise<number> {
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (await fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
