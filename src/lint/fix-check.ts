/**
 * The check every fix passes before the engine keeps it. A fix is a text edit on SKILL.md; what
 * it means to do to the frontmatter's data is declared with it (RuleReport.fixChanges: nothing for
 * a layout fix, or "the value at this path, of these types, becomes this"). The fixed text is
 * parsed again with the same reader as the original (splitFrontmatter: same YAML settings, aliases
 * resolved) and the fix is kept only when
 *
 * - its edits lie inside the frontmatter's YAML, and the text before it and the body after it are
 *   byte for byte what they were (an edit that moved the closing `---` would change the body);
 * - the data is deeply equal to the old data with exactly the declared changes applied, each at a
 *   path that existed and held one of the declared types (so a null stays null unless a rule says
 *   otherwise, and a change that reaches another key through an alias is caught);
 * - the YAML has no error or warning the original did not have;
 * - every comment is still there, in the same order.
 *
 * A refused fix is not applied: the problem stays reported, without a fix.
 */
import { CST, Lexer } from 'yaml';
import { splitFrontmatter, yamlStartOf, type FrontmatterProblem } from '../text/frontmatter.js';
import { normaliseLoneCr } from '../text/line-index.js';
import type { DataChange, DataType, TextEdit } from './types.js';

/** What a fix is compared against: the frontmatter as read from the text before the fix. */
export interface FrontmatterState {
  readonly text: string;
  /** [start, end) of the YAML in `text`. */
  readonly yamlStart: number;
  readonly yamlEnd: number;
  /** The text after the frontmatter's closing line. */
  readonly body: string;
  readonly data: Record<string, unknown> | null;
  /** YAML errors and warnings as "kind: message", positions left out (a fix moves text). */
  readonly problems: readonly string[];
  readonly comments: readonly string[];
}

/** Problems that say the YAML is broken or doubtful. Flow style is not one: a fix may remove it. */
const YAML_PROBLEMS: ReadonlySet<FrontmatterProblem['kind']> = new Set(['frontmatter-missing', 'frontmatter-unclosed', 'frontmatter-yaml-error', 'frontmatter-yaml-warning', 'frontmatter-not-mapping', 'frontmatter-too-large']);

export function frontmatterState(text: string): FrontmatterState {
  const { frontmatter, problems } = splitFrontmatter(text);
  const yamlStart = yamlStartOf(frontmatter.raw);
  return {
    text,
    yamlStart,
    yamlEnd: yamlStart + frontmatter.yaml.length,
    body: text.slice(frontmatter.raw.length),
    data: frontmatter.data,
    problems: problems.filter((p) => YAML_PROBLEMS.has(p.kind)).map((p) => `${p.kind}: ${p.message}`),
    comments: commentsOf(frontmatter.yaml),
  };
}

/**
 * Why the fix that turns `before.text` into `after` with `edits` must not be kept, or null when it
 * may. `changes` are the fix's declared data changes (empty: the data must not change).
 */
export function fixRefusal(before: FrontmatterState, edits: readonly TextEdit[], after: string, changes: readonly DataChange[]): string | null {
  if (before.data === null) return 'the frontmatter could not be read as data, so a fix cannot be checked';
  if (before.yamlEnd <= before.yamlStart) return 'there is no frontmatter YAML to fix';
  if (edits.some((e) => e.start < before.yamlStart || e.end > before.yamlEnd)) return 'an edit lies outside the frontmatter YAML';
  const next = frontmatterState(after);
  if (next.yamlStart !== before.yamlStart || after.slice(0, next.yamlStart) !== before.text.slice(0, before.yamlStart)) return 'the opening --- line would change';
  if (next.body !== before.body) return 'the body would change';
  const newProblem = notIn(next.problems, before.problems);
  if (newProblem !== null) return `the YAML would gain a problem (${newProblem})`;
  if (next.data === null) return 'the fixed frontmatter could not be read as data';
  if (next.comments.length !== before.comments.length || next.comments.some((c, i) => c !== before.comments[i])) return 'a comment would be lost or moved';
  return dataRefusal(before.data, next.data, changes);
}

/** The first of `items` that `allowed` does not hold (as many times), or null. */
function notIn(items: readonly string[], allowed: readonly string[]): string | null {
  const left = new Map<string, number>();
  for (const a of allowed) left.set(a, (left.get(a) ?? 0) + 1);
  for (const i of items) {
    const n = left.get(i) ?? 0;
    if (n === 0) return i;
    left.set(i, n - 1);
  }
  return null;
}

/** The comments of a YAML text, as the YAML lexer finds them (a # inside a string is not one). */
function commentsOf(yaml: string): string[] {
  const out: string[] = [];
  for (const token of new Lexer().lex(normaliseLoneCr(yaml))) {
    if (CST.tokenType(token) === 'comment') out.push(token.trimEnd());
  }
  return out;
}

/** Why `after` is not `before` with exactly `changes` applied, or null when it is. */
export function dataRefusal(before: unknown, after: unknown, changes: readonly DataChange[]): string | null {
  const byPath = new Map(changes.map((c) => [pathKey(c.path), c]));
  const applied = new Set<DataChange>();
  let refusal: string | null = null;
  const walk = (a: unknown, b: unknown, at: (string | number)[]): boolean => {
    const change = at.length > 0 ? byPath.get(pathKey(at)) : undefined;
    if (change) {
      applied.add(change);
      if (!change.from.includes(dataType(a) as DataType)) {
        refusal = `${at.join('.')} is ${dataType(a)}, and the fix only changes a ${change.from.join(' or ')}`;
        return false;
      }
      if (!sameData(b, change.to)) {
        refusal = `${at.join('.')} would become ${describe(b)}, not the intended ${describe(change.to)}`;
        return false;
      }
      return true;
    }
    const ta = dataType(a);
    if (ta !== dataType(b)) return differs(at, a, b);
    if (ta === 'list') {
      const la = a as unknown[];
      const lb = b as unknown[];
      if (la.length !== lb.length) return differs(at, a, b);
      return la.every((x, i) => walk(x, lb[i], [...at, i]));
    }
    if (ta === 'map') {
      const ka = Object.keys(a as object);
      const kb = Object.keys(b as object);
      if (ka.length !== kb.length || ka.some((k) => !Object.prototype.hasOwnProperty.call(b, k))) return differs(at, a, b);
      return ka.every((k) => walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], [...at, k]));
    }
    return sameData(a, b) || differs(at, a, b);
  };
  const differs = (at: readonly (string | number)[], a: unknown, b: unknown): false => {
    refusal = `${at.length ? at.join('.') : 'the frontmatter'} would change from ${describe(a)} to ${describe(b)}`;
    return false;
  };
  if (!walk(before, after, [])) return refusal;
  const missing = changes.find((c) => !applied.has(c));
  return missing ? `the fix's target ${missing.path.join('.')} is not in the data` : null;
}

/** A value's type as DataType names it; 'other' for the objects explicit tags make (Date, Set, …). */
function dataType(v: unknown): DataType | 'other' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return 'map';
  return 'other';
}

/** Deep equality of YAML data: plain values, lists and maps, and the objects of !!binary, !!timestamp, !!set and !!omap. */
function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => sameData(x, (b as unknown[])[i]));
  if (a instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b as Uint8Array));
  if (a instanceof Date) return Object.is(a.getTime(), (b as Date).getTime());
  // A Set or a Map from YAML keeps the order it was written in; a fix does not reorder.
  if (a instanceof Set || a instanceof Map) return sameData([...a], [...(b as Set<unknown> | Map<unknown, unknown>)]);
  if (Object.getPrototypeOf(a) !== Object.prototype) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function pathKey(p: readonly (string | number)[]): string {
  return JSON.stringify(p);
}

function describe(v: unknown): string {
  const t = dataType(v);
  if (t === 'list' || t === 'map' || t === 'other') return `a ${t === 'other' ? 'tagged value' : t}`;
  return JSON.stringify(v);
}
