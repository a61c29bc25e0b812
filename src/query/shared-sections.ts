/**
 * The sections of each skill that are instances of a shared passage (dist/passages.json), so that
 * an answer holding several of them states each text once (issue 18 item 4): the first hit that
 * holds it shows it, a later hit shows a one-line pointer instead. Only instances with the same
 * text are shared (same passage, same bindings), so every hit still has all of its words in the
 * answer. A dist without passages.json (an older build) shares nothing.
 */
import path from 'node:path';
import { validateAgainst } from '../schema/validate.js';
import { readDistFile, MAX_INDEX_BYTES, DistReadError } from '../util/confined-read.js';
import { IndexError } from './graph-index.js';

export interface SharedSection {
  /** Passage id and bindings: two sections with one key hold the same text. */
  readonly key: string;
  readonly heading: string;
  /** Offsets of the body in the skill's decoded text (what an agent reads for it). */
  readonly start: number;
  readonly end: number;
}

/** Skill path → its shared sections, in text order. */
export type SharedSections = ReadonlyMap<string, readonly SharedSection[]>;

interface PassagesJson {
  readonly passages: readonly { readonly id: string; readonly heading: string; readonly members: readonly { readonly parent: string; readonly bindings: Readonly<Record<string, string>>; readonly start?: number; readonly end?: number }[] }[];
}

export function loadSharedSections(dist: string): SharedSections {
  let text: string;
  try {
    text = readDistFile(dist, 'passages.json', { maxBytes: MAX_INDEX_BYTES }).toString('utf8');
  } catch (err) {
    if (err instanceof DistReadError && err.problem === 'missing') return new Map();
    throw err;
  }
  let doc: PassagesJson;
  try {
    doc = JSON.parse(text) as PassagesJson;
  } catch (err) {
    // A damaged dist is the user's to fix (exit 2 with this line), not an internal error.
    throw new IndexError(`${path.join(dist, 'passages.json')} is not valid JSON: ${(err as Error).message}; rebuild the library with this skillc`);
  }
  // The build writes it against its schema; one that is not (edited, or another tool's) is a damaged
  // dist, said in one line, never a null read deep in the answer.
  const check = validateAgainst('passages', doc);
  if (!check.valid) throw new IndexError(`${path.join(dist, 'passages.json')} is not a passages file of this skillc (${check.errors[0]}); rebuild the library with this skillc`);
  const out = new Map<string, SharedSection[]>();
  for (const p of Array.isArray(doc?.passages) ? doc.passages : []) {
    for (const m of Array.isArray(p.members) ? p.members : []) {
      if (typeof m.parent !== 'string' || !Number.isInteger(m.start) || !Number.isInteger(m.end) || m.start! < 0 || m.end! < m.start!) continue;
      const key = `${p.id}\u0000${JSON.stringify(Object.entries(m.bindings ?? {}).sort())}`;
      out.set(m.parent, [...(out.get(m.parent) ?? []), { key, heading: String(p.heading), start: m.start!, end: m.end! }]);
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.start - b.start);
  return out;
}

/** Where a shared section is stated in full: the hit's rank, and the section's heading as that hit writes it. */
export interface StatedAt {
  readonly rank: number;
  readonly heading: string;
}

/**
 * The heading a section's body follows in a skill's text, as written: the nearest non-blank line
 * before `start`, when it is an ATX heading; else the passage's own heading. A passage's heading
 * is a template of its members' (`"… (POM)"`, with `…` where they differ), which an agent reading
 * the hit above cannot find.
 */
export function headingAsWritten(text: string, section: SharedSection): string {
  let end = Math.min(section.start, text.length);
  while (end > 0) {
    const lineStart = text.lastIndexOf('\n', end - 2) + 1;
    const line = text.slice(lineStart, end).trim();
    if (line !== '') {
      const m = /^#{1,6}\s+(.*?)(?:\s+#+)?$/.exec(line);
      return m && m[1]!.trim() !== '' ? m[1]!.trim() : section.heading;
    }
    if (lineStart === 0) break;
    end = lineStart;
  }
  return section.heading;
}

/**
 * The text with each section already stated (key in `stated`) replaced by a pointer to where. `at`
 * is this hit's rank: the stating hit is above it, or below when hits get the budget in another
 * order than they are shown (a plan gives it to its best steps first).
 */
export function withoutRepeats(text: string, sections: readonly SharedSection[], stated: ReadonlyMap<string, StatedAt>, rank = Infinity): { text: string; replaced: number } {
  let out = '';
  let at = 0;
  let replaced = 0;
  for (const s of sections) {
    const where = stated.get(s.key);
    if (where === undefined || s.start < at || s.end > text.length) continue;
    const hit = where.rank;
    out += text.slice(at, s.start) + `[skillc: the same text as under "${where.heading}" in hit ${hit} ${hit < rank ? 'above' : 'below'}]`;
    at = s.end;
    replaced++;
  }
  return { text: out + text.slice(at), replaced };
}
