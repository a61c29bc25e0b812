/**
 * Splits the YAML frontmatter from a SKILL.md and parses it leniently.
 *
 * The block is recognised the way Agent Skills tooling does it: the first line is `---` (trailing
 * blanks allowed), and the block runs to the next line that is `---`. `raw` is that exact slice,
 * closing line and its newline included, so `raw + body === text` always holds. YAML problems are
 * reported with absolute file positions and never stop the parse: what the YAML parser could
 * recover is kept.
 *
 * Bounded work: a frontmatter block over MAX_FRONTMATTER_CHARS is not handed to the YAML parser (a
 * skill's fields fit in a few KiB; megabytes of YAML are an attack on a pre-commit hook), and
 * duplicate keys are found with one hash set per mapping instead of the parser's `uniqueKeys`, whose
 * pairwise search made 200,000 keys take minutes.
 */
import { LineCounter, parseDocument, visit, isMap, isScalar, isSeq, YAMLParseError, type Document } from 'yaml';
import type { Frontmatter } from '../ir/types.js';
import { normaliseLoneCr } from './line-index.js';

export type FrontmatterProblemKind =
  | 'frontmatter-missing'
  | 'frontmatter-unclosed'
  | 'frontmatter-yaml-error'
  | 'frontmatter-yaml-warning'
  | 'frontmatter-not-mapping'
  | 'frontmatter-flow-style'
  | 'frontmatter-too-large';

export interface FrontmatterProblem {
  readonly kind: FrontmatterProblemKind;
  /** String index into the whole file's text. */
  readonly offset: number;
  readonly endOffset?: number;
  readonly message: string;
}

export interface SplitFrontmatter {
  readonly frontmatter: Frontmatter;
  readonly problems: readonly FrontmatterProblem[];
  /** The parsed YAML document with source ranges (for lint's key positions); not IR data. */
  readonly document?: Document.Parsed;
}

const OPEN = /^---[ \t]*(\r\n|\r|\n|$)/;
const CLOSE = /^---[ \t]*$/;
/** Any line ending, as CommonMark reads them (\r\n, \n, or a lone \r). */
const EOL = /\r\n|\r|\n/g;
/** At most this many YAML errors per file; the rest are summarised in the last message. */
const MAX_YAML_ERRORS = 5;
/** Larger frontmatter is not parsed: the Agent Skills fields need a few KiB (the corpora's largest is 2.8 KB). */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;
/** Flow collections (`[`, `{`) nested deeper than this are not parsed: the YAML parser recurses per level. */
export const MAX_FLOW_DEPTH = 64;

/** Index of the YAML's first character in a frontmatter block's raw text (after the opening line). */
export function yamlStartOf(raw: string): number {
  const m = OPEN.exec(raw);
  return m ? m[0].length : 0;
}

export function splitFrontmatter(text: string): SplitFrontmatter {
  const none: Frontmatter = { raw: '', yaml: '', data: null, yamlLine: 0 };
  const open = OPEN.exec(text);
  if (!open) {
    return { frontmatter: none, problems: text.length === 0 ? [] : [{ kind: 'frontmatter-missing', offset: 0, message: 'SKILL.md has no YAML frontmatter (the first line is not ---)' }] };
  }
  const yamlStart = open[0].length;
  // Find the closing fence line.
  let lineStart = yamlStart;
  let closeEnd = -1;
  let yamlEnd = -1;
  while (lineStart < text.length) {
    EOL.lastIndex = lineStart;
    const eol = EOL.exec(text);
    const lineEnd = eol ? eol.index : text.length;
    if (CLOSE.test(text.slice(lineStart, lineEnd))) {
      yamlEnd = lineStart;
      closeEnd = eol ? eol.index + eol[0].length : text.length;
      break;
    }
    if (!eol) break;
    lineStart = eol.index + eol[0].length;
  }
  if (closeEnd < 0) {
    return {
      frontmatter: none,
      problems: [{ kind: 'frontmatter-unclosed', offset: 0, endOffset: 3, message: 'frontmatter opened by --- on line 1 is never closed by a --- line; the whole file is read as body' }],
    };
  }
  const raw = text.slice(0, closeEnd);
  const yaml = text.slice(yamlStart, yamlEnd);
  if (yaml.length > MAX_FRONTMATTER_CHARS) {
    return {
      frontmatter: { raw, yaml, data: null, yamlLine: 2 },
      problems: [{ kind: 'frontmatter-too-large', offset: yamlStart, message: `frontmatter is ${yaml.length} characters; skillc parses at most ${MAX_FRONTMATTER_CHARS} (a skill's fields need a few hundred): it was not read as YAML` }],
    };
  }
  const deep = deepFlowOffset(yaml);
  if (deep >= 0) {
    return {
      frontmatter: { raw, yaml, data: null, yamlLine: 2 },
      problems: [{ kind: 'frontmatter-too-large', offset: yamlStart + deep, endOffset: yamlStart + deep + 1, message: `frontmatter nests flow collections ([…] or {…}) more than ${MAX_FLOW_DEPTH} levels deep here; it was not read as YAML` }],
    };
  }
  // The YAML parser only knows \n and \r\n; a lone \r becomes \n (same length, so offsets hold).
  const { data, problems, document } = parseYaml(normaliseLoneCr(yaml), yamlStart);
  return { frontmatter: { raw, yaml, data, yamlLine: 2 }, problems, ...(document ? { document } : {}) };
}

function parseYaml(yaml: string, base: number): { data: Record<string, unknown> | null; problems: FrontmatterProblem[]; document?: Document.Parsed } {
  const problems: FrontmatterProblem[] = [];
  if (yaml.trim() === '') {
    problems.push({ kind: 'frontmatter-not-mapping', offset: base, message: 'frontmatter is empty' });
    return { data: null, problems };
  }
  const lineCounter = new LineCounter();
  let doc: Document.Parsed;
  try {
    // logLevel 'error': the library's own warnings (a collection used as a key, stringified by
    // toJS) would go to process.emitWarning, raw on stderr with no position; the ones that matter
    // are reported as problems below.
    doc = parseDocument(yaml, { lineCounter, uniqueKeys: false, prettyErrors: false, strict: false, logLevel: 'error' });
  } catch (err) {
    problems.push({ kind: 'frontmatter-yaml-error', offset: base, message: `YAML could not be parsed: ${firstLine(String(err))}` });
    return { data: null, problems };
  }
  addDuplicateKeyErrors(doc);
  // The first error of a line only: the parser's later errors on it follow from the first (one
  // unquoted ': ' gave five, four of them the parser's own words for the same mistake). A
  // duplicate key is a mistake of its own, kept and not counted as the line's first.
  const lines = new Set<number>();
  const shown = doc.errors.filter((e) => {
    if (e.code === 'DUPLICATE_KEY') return true;
    const line = lineCounter.linePos(e.pos[0]).line;
    if (lines.has(line)) return false;
    lines.add(line);
    return true;
  });
  shown.slice(0, MAX_YAML_ERRORS).forEach((e, i) => {
    const more = i === MAX_YAML_ERRORS - 1 && shown.length > MAX_YAML_ERRORS ? ` (and ${shown.length - MAX_YAML_ERRORS} more YAML errors)` : '';
    const quote = e.code === 'MISSING_CHAR' ? openingQuote(yaml, e.pos[0], e.message) : -1;
    const colon = e.code === 'BLOCK_AS_IMPLICIT_KEY' ? innerColon(yaml, e.pos[0]) : -1;
    if (colon >= 0) {
      // The parser points at the value's start; what broke it is a `: ` further on in the value.
      problems.push({ kind: 'frontmatter-yaml-error', offset: base + colon, endOffset: base + colon + 1, message: `invalid YAML: this ': ' in the value starts a nested mapping, which YAML does not allow there; put the whole value in quotes (key: "…") or write it as a block (key: >-)${more}` });
    } else if (quote >= 0) {
      // The parser notices a missing quote where the text ends; the author needs the opening one.
      problems.push({ kind: 'frontmatter-yaml-error', offset: base + quote, endOffset: base + quote + 1, message: `invalid YAML: the string opened by ${yaml[quote]} here is never closed${more}` });
    } else {
      problems.push({ kind: 'frontmatter-yaml-error', offset: base + e.pos[0], endOffset: base + e.pos[1], message: `invalid YAML: ${firstLine(e.message)}${more}` });
    }
  });
  for (const w of doc.warnings.slice(0, MAX_YAML_ERRORS)) {
    problems.push({ kind: 'frontmatter-yaml-warning', offset: base + w.pos[0], endOffset: base + w.pos[1], message: `YAML warning: ${firstLine(w.message)}` });
  }
  visit(doc, {
    Map(_key, node) {
      for (const pair of node.items) {
        const key = pair.key;
        if ((isMap(key) || isSeq(key)) && key.range) {
          problems.push({ kind: 'frontmatter-yaml-warning', offset: base + key.range[0], endOffset: base + key.range[1], message: `YAML warning: a ${isMap(key) ? 'mapping' : 'list'} used as a key is turned into a string of its text; use a plain string key` });
        }
      }
      if (node.flow && node.range) {
        problems.push({ kind: 'frontmatter-flow-style', offset: base + node.range[0], endOffset: base + node.range[1], message: 'flow-style mapping {…}: valid YAML, but strict YAML parsers (the reference validator) reject it; use block style' });
        return visit.SKIP;
      }
      return undefined;
    },
    Seq(_key, node) {
      if (node.flow && node.range) {
        problems.push({ kind: 'frontmatter-flow-style', offset: base + node.range[0], endOffset: base + node.range[1], message: 'flow-style sequence […]: valid YAML, but strict YAML parsers (the reference validator) reject it; use a block list' });
        return visit.SKIP;
      }
      return undefined;
    },
  });
  if (doc.contents !== null && !isMap(doc.contents)) {
    const start = doc.contents.range?.[0] ?? 0;
    problems.push({ kind: 'frontmatter-not-mapping', offset: base + start, message: 'frontmatter is not a mapping of keys to values' });
    return { data: null, problems, document: doc };
  }
  let data: Record<string, unknown> | null = null;
  try {
    const js: unknown = doc.toJS({ maxAliasCount: 100 });
    data = js !== null && typeof js === 'object' && !Array.isArray(js) ? (js as Record<string, unknown>) : null;
    // An anchor used inside itself (`description: &x [*x]`) makes data that contains itself, which
    // no JSON artifact can hold (parents.json carries the data): such data is not data.
    if (data !== null) {
      try {
        JSON.stringify(data);
      } catch {
        data = null;
        problems.push({ kind: 'frontmatter-yaml-error', offset: base, message: 'YAML could not be converted to data: it contains itself (an anchor used inside its own node) or nests too deep to be held as JSON' });
      }
    }
  } catch (err) {
    problems.push({ kind: 'frontmatter-yaml-error', offset: base, message: `YAML could not be converted to data: ${firstLine(String(err))}` });
  }
  return { data, problems, document: doc };
}

/**
 * Index of the bracket at which flow collections first nest deeper than MAX_FLOW_DEPTH, or -1.
 * Every bracket counts, quoted or not: telling quotes from apostrophes in plain scalars takes the
 * parser itself, and an overestimate only matters past 64 unclosed brackets.
 */
function deepFlowOffset(yaml: string): number {
  let depth = 0;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++depth > MAX_FLOW_DEPTH) return i;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return -1;
}

/**
 * Where a value that YAML read as a nested mapping has its `: ` (a colon followed by a space or
 * the line's end), on the line of `at` and after it; -1 when there is none (the error was
 * something else).
 */
function innerColon(yaml: string, at: number): number {
  const end = yaml.indexOf('\n', at);
  const line = yaml.slice(at, end < 0 ? yaml.length : end);
  const m = /:(?=\s|$)/.exec(line);
  return m ? at + m.index : -1;
}

/**
 * The errors `uniqueKeys: true` would give (same code, message and position: the key's start), found
 * in linear time: per mapping, a set of the scalar keys seen so far. Keys are equal as the parser
 * compares them: scalars with the same value (===); two distinct non-scalar key nodes never are.
 */
function addDuplicateKeyErrors(doc: Document.Parsed): void {
  const found: YAMLParseError[] = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = pair.key;
        if (!isScalar(key) || Number.isNaN(key.value)) continue;
        if (seen.has(key.value)) {
          const at = key.range?.[0] ?? map.range?.[0] ?? 0;
          found.push(new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
        }
        seen.add(key.value);
      }
      return undefined;
    },
  });
  if (found.length === 0) return;
  // Merged into the parser's own errors in source order, where the parser would have reported them.
  doc.errors.push(...found);
  doc.errors.sort((a, b) => a.pos[0] - b.pos[0]);
}

/** Index of the quote that opened an unterminated quoted scalar ending at `end`, or -1. */
function openingQuote(yaml: string, end: number, message: string): number {
  const q = message.includes('"') ? '"' : message.includes("'") ? "'" : '';
  if (!q) return -1;
  for (let i = Math.min(end, yaml.length) - 1; i >= 0; i--) {
    if (yaml[i] !== q) continue;
    if (q === '"' && yaml[i - 1] === '\\') continue;
    // In single quotes, '' is an escaped quote inside the string.
    if (q === "'" && yaml[i - 1] === "'") {
      i--;
      continue;
    }
    return i;
  }
  return -1;
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return (i < 0 ? s : s.slice(0, i)).trim();
}
