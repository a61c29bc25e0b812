/**
 * Shared passages (SPEC §1, issue 18): the body of a section (what follows its heading line) that
 * recurs in three or more skills, verbatim or with only names and numbers changed. Most of the
 * redundancy of real libraries is of this kind rather than parameterised procedures: toolkit skills
 * generated from one template, a "Known pitfalls" section pasted into hundreds of skills.
 *
 * Bodies are compared as runs of letters and digits (words) and the exact text between them, so
 * whitespace and punctuation must match too. They are grouped twice: first by their exact text,
 * then, among the rest, with numbers and the words of each skill's own name masked (a toolkit
 * skill says `_21risk` where its twin says `_2chat`). In a masked group the positions whose words
 * differ between members become slots, one per distinct pattern of values (a name repeated five
 * times is one slot); positions where every member has the same word stay text. Every member must
 * give back its body exactly from the template and its bindings, or the group is not a passage.
 * Copies (byte-identical SKILL.md files) count once, and a bounded skill takes no part.
 */
import type { Parent, Passage, PassageMember, Unit } from '../ir/types.js';
import { headingLength, parentText } from '../rewrite/splice.js';
import { escapeTemplateText, templatePieces } from '../rewrite/templates.js';
import { kebab } from '../text/tokens.js';
import { sha256 } from '../util/hash.js';
import { createHash } from 'node:crypto';
import { compareCodeUnits } from '../util/stable-json.js';

export const MIN_PASSAGE_PARENTS = 3;
/**
 * Shorter bodies cost about as much to reference as to state: a group needs MIN_PASSAGE_PARENTS
 * parents whose bodies reach this (whitespace collapsed). Whether each reference pays is counted
 * in tokens later (rewrite/plan.ts); this only keeps trivial sections from being grouped.
 */
export const MIN_BODY_CHARS = 80;
/**
 * A shorter body may still join a group of longer twins: the same text with a shorter name in it
 * (`toolkits: ["exa"]` beside `toolkits: ["coupa"]`). A cut-off on each member alone left 30 of
 * 732 toolkit skills of the corpora with some of their shared sections unreferenced, for the
 * length of their names.
 */
const MIN_TWIN_CHARS = 40;
const WORD = /[A-Za-z0-9]+/g;
/** Words too common in skill names to mark a skill's identity. */
const COMMON_NAME_WORDS: ReadonlySet<string> = new Set(['the', 'and', 'for', 'with', 'skill', 'skills', 'tool', 'tools', 'helper', 'helpers', 'automation', 'api', 'cli', 'app', 'pro', 'expert', 'guide', 'dev', 'test', 'data', 'file', 'files']);

export interface Body {
  readonly parent: Parent;
  readonly unit: Unit;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Alternating separators and words: texts[0] sep, texts[1] word, …, always an odd count. */
  readonly pieces: readonly string[];
  readonly masked: readonly boolean[];
}

export interface Identity {
  /**
   * Words of the skill's own name that mark it (three letters or more, not common), and its words
   * run together (`kofi`): a run of name words in the text (`Ko Fi`, `ko_fi`) is the name if one of
   * its words, or all of them joined, is one of these.
   */
  readonly strong: ReadonlySet<string>;
  /** Every word of its name: these may join a strong one into one name (`capsule_crm`, `Zyte API`). */
  readonly all: ReadonlySet<string>;
}

/** The words of a skill's own name (folder and frontmatter `name`), alone and run together, that may vary between twins. */
export function identityOf(p: Parent): Identity {
  const strong = new Set<string>();
  const all = new Set<string>();
  const folder = p.path.slice(p.path.lastIndexOf('/') + 1);
  const name = typeof p.frontmatter.data?.['name'] === 'string' ? (p.frontmatter.data['name'] as string) : '';
  for (const source of [folder, name]) {
    const words = [...source.matchAll(WORD)].map((m) => m[0].toLowerCase());
    for (const w of words) {
      all.add(w);
      if (w.length >= 3 && !COMMON_NAME_WORDS.has(w)) strong.add(w);
    }
    // The name's words run together, as a title writes it: `ActiveCampaign` for active-campaign,
    // `GoToWebinar` for go-to-webinar. (Common words take no part: `activecampaignautomation` is
    // no one's name.)
    // Runs of at most four of the first twelve words: a name is short, and a hostile frontmatter
    // `name` of thousands of words must not cost their square.
    const own = words.filter((w) => !COMMON_NAME_WORDS.has(w)).slice(0, 12);
    for (let i = 0; i < own.length; i++) {
      for (let j = i + 2; j <= Math.min(own.length, i + 4); j++) {
        const joined = own.slice(i, j).join('');
        all.add(joined);
        if (joined.length >= 3) strong.add(joined);
      }
    }
  }
  return { strong, all };
}

/** A separator that joins the words of one name: `capsule_crm`, `cutt-ly`, `Zyte API`, `pdf.co`. */
const NAME_JOINER = /^[_\-. ]$/;

/** A character of WORD: an ASCII letter or digit. */
const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function allDigits(w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return w.length > 0;
}

const SPACE = /\s/;

/**
 * Whether `text` with its whitespace runs collapsed to one space and trimmed (`replace(/\s+/g, ' ')
 * .trim()`) is at least `min` characters long, counted without making that string.
 */
export function collapsedAtLeast(text: string, min: number): boolean {
  let length = 0;
  let gap = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || (c >= 9 && c <= 13) || (c >= 128 && SPACE.test(text[i]!));
    if (space) {
      gap = length > 0;
      continue;
    }
    length += gap ? 2 : 1;
    gap = false;
    if (length >= min) return true;
  }
  return length >= min;
}

/** Where a section's body lies (after its heading line and the blank lines under it, without trailing whitespace), or null when it is not a candidate. */
function bodySpan(u: Unit, text: string): { readonly start: number; readonly end: number; readonly body: string; readonly short: boolean } | null {
  if (u.kind !== 'section') return null;
  const h = headingLength(u);
  if (h === null || h === 0) return null;
  let start = u.start + h;
  // The body begins after the heading's line ending and the blank lines under it.
  for (let m = /^[ \t]*(\r\n|\r|\n)/.exec(text.slice(start, start + 200)); m; m = /^[ \t]*(\r\n|\r|\n)/.exec(text.slice(start, start + 200))) start += m[0].length;
  let end = u.end;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  const body = text.slice(start, end);
  if (!collapsedAtLeast(body, MIN_TWIN_CHARS)) return null;
  return { start, end, body, short: !collapsedAtLeast(body, MIN_BODY_CHARS) };
}

/**
 * A section's body, split into separators and words, or null when it is not a candidate. Groups'
 * templates are made from these; bodyKeysOf's masked key must equal maskedKey of them (tested).
 */
export function bodyOf(p: Parent, u: Unit, text: string, identity: Identity): Body | null {
  const span = bodySpan(u, text);
  if (!span) return null;
  const { start, end, body } = span;
  // Separators and words (WORD's matches) in turn, from a separator.
  const raw: string[] = [];
  let at = 0;
  for (let i = 0; i < body.length; ) {
    if (!isWordChar(body.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < body.length && isWordChar(body.charCodeAt(j))) j++;
    raw.push(body.slice(at, i), body.slice(i, j));
    at = i = j;
  }
  raw.push(body.slice(at));
  // A name of several words is one piece: a strong name word with the name words joined to it by
  // `_`, `-`, `.` or one space, so `capsule_crm` and `ably` fill the same slot.
  const pieces: string[] = [];
  const masked: boolean[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (i % 2 === 0) {
      pieces.push(raw[i]!);
      masked.push(false);
      continue;
    }
    const w = raw[i]!;
    if (allDigits(w)) {
      pieces.push(w);
      masked.push(true);
      continue;
    }
    const inName = (k: number) => k < raw.length && identity.all.has(raw[k]!.toLowerCase());
    if (!inName(i)) {
      pieces.push(w);
      masked.push(false);
      continue;
    }
    let j = i;
    while (j + 2 < raw.length && NAME_JOINER.test(raw[j + 1]!) && inName(j + 2)) j += 2;
    const run = raw.slice(i, j + 1);
    const words = run.filter((_, k) => k % 2 === 0);
    const strong = words.some((x) => identity.strong.has(x.toLowerCase())) || (words.length > 1 && identity.strong.has(words.join('').toLowerCase()));
    if (!strong) {
      pieces.push(w);
      masked.push(false);
      continue;
    }
    pieces.push(run.join(''));
    masked.push(true);
    // The separators and words folded into the run are skipped; the next separator follows.
    i = j;
  }
  return { parent: p, unit: u, start, end, text: body, pieces, masked };
}

/**
 * A candidate body of a parent as grouping sees it: its unit's position in `parent.units` and
 * hashes of its exact text and of its masked key. Small, and a function of the parent alone, so a
 * build can keep them per parent (PassageMemo).
 */
export interface BodyKey {
  readonly unit: number;
  readonly exact: string;
  readonly masked: string;
  /** Under MIN_BODY_CHARS: it joins a group, but does not count towards making one. */
  readonly short: boolean;
}

/** A passage before its id is given: what templateOf makes of a group. */
export type PassageDraft = Omit<Passage, 'id'>;

/**
 * Where detectPassages may find what an earlier build computed (passes/passages.ts keeps them in
 * the build cache): a parent's body keys by the parent's parse inputs, and a group's passage (or
 * null, when some member would not come back exactly) by its members' parents and units.
 */
export interface PassageMemo {
  bodyKeys(parent: Parent, compute: () => BodyKey[]): BodyKey[];
  group(members: readonly { readonly parent: Parent; readonly unit: number }[], compute: () => PassageDraft | null): PassageDraft | null;
}

/** SHA-256 of the text's UTF-16 code units: one-to-one on strings, lone surrogates included. */
const hashed = (s: string) => createHash('sha256').update(s, 'utf16le').digest('base64');

/** Text with numbers and the skill's name masked: bodies equal under it differ only in those. */
export function maskedKey(b: Body): string {
  return b.pieces.map((x, i) => (b.masked[i] ? '\u0000' : x)).join('\u0001');
}

/**
 * A skill's identity with what tells a word cannot be one of its name words without a lookup: a
 * name word is at most as long as the longest one and starts with one of their first letters.
 * Made once per skill, for all its sections.
 */
interface NameWords {
  readonly identity: Identity;
  readonly longest: number;
  readonly firsts: Uint8Array;
}

function nameWordsOf(identity: Identity): NameWords {
  let longest = 0;
  const firsts = new Uint8Array(128);
  for (const w of identity.all) {
    longest = Math.max(longest, w.length);
    firsts[w.charCodeAt(0)] = 1;
  }
  return { identity, longest, firsts };
}

/** Scratch for maskedKeyHash: the key's UTF-16LE bytes. */
let keyBytes = new Uint8Array(1 << 16);

/** `_`, `-`, `.` or a space: NAME_JOINER's characters. */
const isJoiner = (c: number) => c === 95 || c === 45 || c === 46 || c === 32;

/**
 * hashed(maskedKey(bodyOf(…))) made in one scan of the body, without the separator and word
 * arrays or the key as a string: the key's UTF-16LE bytes are written straight from the body's
 * code units, word by word by bodyOf's rules (a number is masked; a strong name word, with the name
 * words joined to it by one NAME_JOINER character, is masked as one piece). A cold build computes
 * it for every section of the library: with the arrays and the string it took about 1 s of the
 * corpora's 2,268 skills. A test holds it to the split-and-join reference.
 */
function maskedKeyHash(body: string, names: NameWords): string {
  // Each code unit is 2 bytes; each word adds two \u0001 around it (a word has one code unit at least).
  const need = body.length * 6 + 2;
  if (keyBytes.length < need) keyBytes = new Uint8Array(Math.max(need, keyBytes.length * 2));
  const out = keyBytes;
  const { identity, longest, firsts } = names;
  const inName = (from: number, to: number) => {
    if (to - from > longest) return false;
    const c = body.charCodeAt(from);
    // Name words are lower-cased ASCII letters and digits.
    return firsts[c >= 65 && c <= 90 ? c + 32 : c] === 1 && identity.all.has(body.slice(from, to).toLowerCase());
  };
  /** The end of the word starting at `from` (a word character). */
  const wordEnd = (from: number) => {
    let j = from + 1;
    while (j < body.length && isWordChar(body.charCodeAt(j))) j++;
    return j;
  };
  let o = 0;
  const n = body.length;
  for (let i = 0; i < n; ) {
    const c = body.charCodeAt(i);
    if (!isWordChar(c)) {
      out[o++] = c & 0xff;
      out[o++] = c >>> 8;
      i++;
      continue;
    }
    let j = i;
    let digits = true;
    for (let w = c; j < n && isWordChar((w = body.charCodeAt(j))); j++) if (w > 57) digits = false;
    out[o++] = 1;
    out[o++] = 0;
    let masked = digits;
    let end = j;
    if (!digits && inName(i, j)) {
      // The run: name words joined by one joiner character each.
      const run: [number, number][] = [[i, j]];
      while (end + 1 < n && isJoiner(body.charCodeAt(end)) && isWordChar(body.charCodeAt(end + 1))) {
        const next = wordEnd(end + 1);
        if (!inName(end + 1, next)) break;
        run.push([end + 1, next]);
        end = next;
      }
      masked = run.some(([from, to]) => identity.strong.has(body.slice(from, to).toLowerCase())) || (run.length > 1 && identity.strong.has(run.map(([from, to]) => body.slice(from, to)).join('').toLowerCase()));
      if (!masked) end = j;
    }
    if (masked) {
      out[o++] = 0;
      out[o++] = 0;
    } else {
      // Word characters are ASCII: their high byte is 0.
      for (let k = i; k < j; k++) {
        out[o++] = body.charCodeAt(k);
        out[o++] = 0;
      }
    }
    out[o++] = 1;
    out[o++] = 0;
    i = end;
  }
  return createHash('sha256').update(out.subarray(0, o)).digest('base64');
}

/** The body keys of one parent, in unit order. */
export function bodyKeysOf(p: Parent): BodyKey[] {
  const text = parentText(p);
  const names = nameWordsOf(identityOf(p));
  const out: BodyKey[] = [];
  p.units.forEach((u, i) => {
    const span = bodySpan(u, text);
    if (span) out.push({ unit: i, exact: hashed(span.body), masked: maskedKeyHash(span.body, names), short: span.short });
  });
  return out;
}

const NO_MEMO: PassageMemo = { bodyKeys: (_, compute) => compute(), group: (_, compute) => compute() };

interface Keyed {
  readonly parent: Parent;
  readonly key: BodyKey;
}

/** A kept body key that does not give a body with its hash: the memo is not used for this detection. */
class KeptBodyMismatch extends Error {}

export function detectPassages(parents: readonly Parent[], copies: ReadonlySet<string> = new Set(), memo: PassageMemo = NO_MEMO): Passage[] {
  if (memo === NO_MEMO) return detect(parents, copies, memo);
  try {
    return detect(parents, copies, memo);
  } catch (err) {
    if (err instanceof KeptBodyMismatch) return detect(parents, copies, NO_MEMO);
    throw err;
  }
}

function detect(parents: readonly Parent[], copies: ReadonlySet<string>, memo: PassageMemo): Passage[] {
  // Grouping compares hashes of the bodies (SHA-256: equal hashes are equal texts); the bodies
  // themselves are split again only for the members of a group, to make its template.
  const bodies: Keyed[] = [];
  for (const p of parents) {
    if (p.bounded || p.malicious || copies.has(p.path) || p.encoding === 'utf-8-invalid') continue;
    for (const key of memo.bodyKeys(p, () => bodyKeysOf(p))) bodies.push({ parent: p, key });
  }
  const groups: Keyed[][] = [];
  const taken = new Set<Keyed>();
  const collect = (key: (b: Keyed) => string) => {
    const byKey = new Map<string, Keyed[]>();
    for (const b of bodies) {
      if (taken.has(b)) continue;
      const k = key(b);
      const list = byKey.get(k);
      // In place: copying the list on each add made a section shared by n skills cost n².
      if (list) list.push(b);
      else byKey.set(k, [b]);
    }
    for (const list of byKey.values()) {
      if (new Set(list.filter((b) => !b.key.short).map((b) => b.parent.path)).size < MIN_PASSAGE_PARENTS) continue;
      groups.push(list);
      for (const b of list) taken.add(b);
    }
  };
  collect((b) => b.key.exact);
  collect((b) => b.key.masked);

  const read = new Map<Parent, { text: string; identity: Identity }>();
  const bodyOfKeyed = (b: Keyed): Body => {
    let r = read.get(b.parent);
    if (!r) read.set(b.parent, (r = { text: parentText(b.parent), identity: identityOf(b.parent) }));
    const unit = b.parent.units[b.key.unit];
    const body = unit ? bodyOf(b.parent, unit, r.text, r.identity) : null;
    // Kept keys are checked for range and order when read; this catches one that names a unit
    // with no body, or another body (a key computed in this build always gives its own).
    if (!body || hashed(body.text) !== b.key.exact) throw new KeptBodyMismatch(`${b.parent.path} unit ${b.key.unit}`);
    return body;
  };
  const passages: PassageDraft[] = [];
  for (const list of groups) {
    const made = memo.group(list.map((b) => ({ parent: b.parent, unit: b.key.unit })), () => templateOf(list.map(bodyOfKeyed)));
    if (made) passages.push(made);
  }
  // Ids from the words every member's heading shares (a toolkit's own name in its heading is not
  // the passage's), in order of the first member; a second passage with those words takes the
  // first words of its text, then a short hash of its text (never a running number).
  passages.sort((a, b) => compareCodeUnits(a.members[0]!.unit, b.members[0]!.unit) || compareCodeUnits(a.text, b.text));
  const used = new Set<string>();
  return passages.map((p) => {
    // An id says what the passage is in words: a heading of no Latin words (`5. レビュー結果の保存`)
    // gives none (kebab's `contract` fallback, or a bare `5`), and then its text's words do, or
    // `passage` and a short hash of its text.
    const named = (x: string) => x !== 'contract' && /[a-z]/.test(x);
    const words = p.text.replace(/\{[A-Za-z_]\w*\}/g, ' ');
    const heading = kebab(p.heading, 5);
    const base = named(heading) ? heading : kebab(words, 5);
    let id = named(base) ? base : `passage-${sha256(p.text).slice(0, 6)}`;
    if (used.has(id)) id = kebab(`${p.heading} ${words}`, 7);
    if (used.has(id) || !named(id)) id = `${named(base) ? base : 'passage'}-${sha256(p.text).slice(0, 6)}`;
    used.add(id);
    return { ...p, id };
  });
}

/** The group's template and each member's bindings, or null when some member would not come back exactly. */
function templateOf(list: readonly Body[]): PassageDraft | null {
  const first = list[0]!;
  const n = first.pieces.length;
  // Positions where members differ: those become slots, grouped by their pattern of values.
  const slotOfPattern = new Map<string, string>();
  const slotAt = new Map<number, string>();
  const counts = { name: 0, slug: 0, number: 0 };
  for (let i = 1; i < n; i += 2) {
    const values = list.map((b) => b.pieces[i]!);
    if (values.every((v) => v === values[0])) continue;
    const pattern = values.join('\u0000');
    let slot = slotOfPattern.get(pattern);
    if (!slot) {
      // What the values look like: numbers, lower-case identifiers (a toolkit's slug), or names.
      const kind = values.every((v) => /^\d+$/.test(v)) ? 'number' : values.every((v) => /^[a-z0-9]+(?:[_\-.][a-z0-9]+)*$/.test(v) && /[_\-.]|^[a-z]/.test(v)) ? 'slug' : 'name';
      counts[kind]++;
      slot = counts[kind] === 1 ? kind : `${kind}_${counts[kind]}`;
      slotOfPattern.set(pattern, slot);
    }
    slotAt.set(i, slot);
  }
  let text = '';
  for (let i = 0; i < n; i++) text += slotAt.has(i) ? `{${slotAt.get(i)}}` : escapeTemplateText(first.pieces[i]!);
  const slots = [...new Set(slotAt.values())];
  const members: PassageMember[] = [];
  for (const b of list) {
    const bindings: Record<string, string> = {};
    for (const [i, slot] of slotAt) bindings[slot] = b.pieces[i]!;
    if (render(text, slots, bindings) !== b.text) return null;
    members.push({ parent: b.parent.path, unit: b.unit.id, file: b.parent.file, line: b.unit.line, start: b.start, end: b.end, bindings });
  }
  return { heading: sharedHeading(list.map((b) => b.unit.heading ?? '')), text, slots, members };
}

/** The passage with its slots filled, exactly (no whitespace collapsed). */
export function render(text: string, slots: readonly string[], bindings: Readonly<Record<string, string>>): string {
  return templatePieces({ template: text, slots }).map((p) => (p.kind === 'const' ? p.text : (bindings[p.name] ?? ''))).join('');
}

/** The heading when every member has the same one; else the words of the first that every heading has (case-insensitive), in its order. */
function sharedHeading(headings: readonly string[]): string {
  if (headings.every((h) => h === headings[0])) return headings[0]!;
  const sets = headings.map((h) => new Set([...h.matchAll(WORD)].map((m) => m[0].toLowerCase())));
  // The first member's heading with the words that are not every member's as "…" (one for a run):
  // "… Automation via Rube MCP" for "Ably Automation via Rube MCP" and its twins, a heading each
  // member has with its own name in it. The id is made of the words they share.
  const first = headings[0]!;
  const words = [...first.matchAll(WORD)];
  const shared = (i: number) => sets.every((set) => set.has(words[i]![0].toLowerCase()));
  let out = '';
  let at = 0;
  for (let i = 0; i < words.length; i++) {
    const m = words[i]!;
    out += first.slice(at, m.index);
    let last = i;
    if (shared(i)) out += m[0];
    else {
      while (last + 1 < words.length && !shared(last + 1)) last++;
      out += '…';
    }
    at = words[last]!.index + words[last]![0].length;
    i = last;
  }
  return out + first.slice(at);
}
