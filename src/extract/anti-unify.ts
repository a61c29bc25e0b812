/**
 * Anti-unification of action lines into templates (SPEC §2, pass 3). Lines that are the same
 * statement (extract/statement.ts: the same kind and head — program, callee or leading verb) and
 * share at least half their tokens (longest common subsequence) form a group; lines that are no
 * procedure (imports, assignments, control flow, markup, heading-like phrases) join none. The
 * tokens common to every line of the group, in order, stay constant and each run of differing
 * tokens between them becomes a slot. `take mug from table` and `take salt from counter` give
 * `take {1} from {2}` with bindings {mug, table} and {salt, counter}.
 */
import type { ActionLine } from './action-lines.js';
import { PROCEDURE_KINDS, statementOf } from './statement.js';

export interface LineGroup {
  readonly source: ActionLine['source'];
  readonly lines: ActionLine[];
}

export interface AntiUnified {
  /** Template pieces: constant tokens and slot markers (by slot index), with the first line's spacing. */
  readonly pieces: readonly ({ kind: 'const'; token: string; spaced: boolean } | { kind: 'slot'; index: number; spaced: boolean })[];
  readonly slotCount: number;
  /** Per line of the group: the tokens that fill each slot (joined by a space; "" when empty). */
  readonly fillers: readonly (readonly string[])[];
}

const MAX_GROUPS_PER_KEY = 64;

/** The command shape two action lines must share to be grouped: their source and first token. */
export function shapeKey(source: ActionLine['source'], firstToken: string): string {
  return `${source}\u0000${firstToken.toLowerCase()}`;
}

/** Groups lines by statement. Deterministic: lines are taken in the order given. */
export function groupLines(lines: readonly ActionLine[]): LineGroup[] {
  const byKey = new Map<string, LineGroup[]>();
  const groups: LineGroup[] = [];
  for (const line of lines) {
    const st = statementOf(line);
    if (!PROCEDURE_KINDS.has(st.kind)) continue;
    const key = `${line.source}\u0000${st.kind}\u0000${st.head}`;
    let bucket = byKey.get(key);
    if (!bucket) byKey.set(key, (bucket = []));
    let home = bucket.find((g) => alignable(g.lines[0]!.tokens, line.tokens));
    if (!home) {
      if (bucket.length >= MAX_GROUPS_PER_KEY) continue;
      home = { source: line.source, lines: [] };
      bucket.push(home);
      groups.push(home);
    }
    home.lines.push(line);
  }
  return groups;
}

/**
 * Whether two lines of one statement align: at least half their tokens in common, or the same
 * opening and a short tail of as many tokens that differs (`open fridge 1`, `open cabinet 2`: a
 * value of a few words at the end).
 */
function alignable(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const common = lcs(a, b).length;
  if (common * 2 >= Math.max(a.length, b.length)) return true;
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return prefix >= 1 && prefix === common && a.length === b.length && a.length - prefix <= MAX_TAIL;
}

const MAX_TAIL = 3;

/** Longest common subsequence of two token lists (case-sensitive). */
export function lcs(a: readonly string[], b: readonly string[]): string[] {
  const n = a.length;
  const m = b.length;
  const dp: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push(a[i]!);
      i++;
      j++;
    } else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/** `spaced[i][k]`: whether token k of line i had whitespace before it (fillers and the template keep it). */
/**
 * `splitArguments`: in a shell command line, a gap where every line has the same few tokens is one
 * slot per token (each is an argument of its own); elsewhere (`go to fridge 1`) a gap is one value.
 */
export function antiUnify(lines: readonly (readonly string[])[], spaced: readonly (readonly boolean[])[] = [], splitArguments = false): AntiUnified {
  let constants = [...lines[0]!];
  for (const l of lines.slice(1)) constants = lcs(constants, l);
  // Place each line's tokens around the constants; gaps[g] = tokens before constant g (g = constants.length: after the last).
  // Spacing before each constant and each gap, as the first line has it.
  const constSpaced: boolean[] = new Array<boolean>(constants.length).fill(true);
  const gapsPerLine = lines.map((tokens, li) => {
    const gaps: { t: string; sp: boolean }[][] = Array.from({ length: constants.length + 1 }, () => []);
    let c = 0;
    tokens.forEach((t, ti) => {
      const sp = spaced[li]?.[ti] ?? true;
      if (c < constants.length && t === constants[c]) {
        if (li === 0) constSpaced[c] = sp;
        c++;
      } else gaps[c]!.push({ t, sp });
    });
    return gaps;
  });
  // A gap is one slot, except in shell lines when every line has the same few tokens in it: then
  // each token is a slot of its own (`git clone {url} {directory}`, not one slot for both).
  const MAX_SPLIT = 4;
  const pieces: AntiUnified['pieces'][number][] = [];
  const fillers: string[][] = lines.map(() => []);
  let slots = 0;
  for (let g = 0; g <= constants.length; g++) {
    const lens = gapsPerLine.map((gaps) => gaps[g]!.length);
    if (lens.some((n) => n > 0)) {
      const first = gapsPerLine[0]![g]!;
      const k = lens[0]!;
      const split = splitArguments && k >= 2 && k <= MAX_SPLIT && lens.every((n) => n === k);
      if (split) {
        for (let j = 0; j < k; j++) {
          pieces.push({ kind: 'slot', index: slots++, spaced: first[j]!.sp });
          gapsPerLine.forEach((gaps, li) => fillers[li]!.push(gaps[g]![j]!.t));
        }
      } else {
        pieces.push({ kind: 'slot', index: slots++, spaced: first[0]?.sp ?? true });
        // Inside a gap, keep the line's own spacing so the filler is a substring of the line.
        gapsPerLine.forEach((gaps, li) => fillers[li]!.push(gaps[g]!.map((x, j) => (j > 0 && x.sp ? ' ' + x.t : x.t)).join('')));
      }
    }
    if (g < constants.length) pieces.push({ kind: 'const', token: constants[g]!, spaced: constSpaced[g]! });
  }
  return { pieces, slotCount: slots, fillers };
}
