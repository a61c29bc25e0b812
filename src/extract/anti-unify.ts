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

function alignable(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const common = lcs(a, b).length;
  return common * 2 >= Math.max(a.length, b.length);
}

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
export function antiUnify(lines: readonly (readonly string[])[], spaced: readonly (readonly boolean[])[] = []): AntiUnified {
  let constants = [...lines[0]!];
  for (const l of lines.slice(1)) constants = lcs(constants, l);
  // Place each line's tokens around the constants; gaps[g] = tokens before constant g (g = constants.length: after the last).
  // Spacing before each constant and each gap, as the first line has it.
  const constSpaced: boolean[] = new Array<boolean>(constants.length).fill(true);
  const gapSpaced: boolean[] = new Array<boolean>(constants.length + 1).fill(true);
  const gapsPerLine = lines.map((tokens, li) => {
    const gaps: string[][] = Array.from({ length: constants.length + 1 }, () => []);
    let c = 0;
    tokens.forEach((t, ti) => {
      const sp = spaced[li]?.[ti] ?? true;
      if (c < constants.length && t === constants[c]) {
        if (li === 0) constSpaced[c] = sp;
        c++;
      } else {
        if (li === 0 && gaps[c]!.length === 0) gapSpaced[c] = sp;
        // Inside a gap, keep the line's own spacing so the filler is a substring of the line.
        gaps[c]!.push(gaps[c]!.length > 0 && sp ? ' ' + t : t);
      }
    });
    return gaps;
  });
  const slotAt = new Map<number, number>();
  for (let g = 0; g <= constants.length; g++) if (gapsPerLine.some((gaps) => gaps[g]!.length > 0)) slotAt.set(g, slotAt.size);
  const pieces: AntiUnified['pieces'][number][] = [];
  for (let g = 0; g <= constants.length; g++) {
    const s = slotAt.get(g);
    if (s !== undefined) pieces.push({ kind: 'slot', index: s, spaced: gapSpaced[g]! });
    if (g < constants.length) pieces.push({ kind: 'const', token: constants[g]!, spaced: constSpaced[g]! });
  }
  const fillers = gapsPerLine.map((gaps) => [...slotAt.keys()].map((g) => gaps[g]!.join('')));
  return { pieces, slotCount: slotAt.size, fillers };
}
