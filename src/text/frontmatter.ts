/**
 * Splits the YAML frontmatter from a SKILL.md and parses it leniently.
 *
 * The block is recognised the way Agent Skills tooling does it: the first line is `---` (trailing
 * blanks allowed), and the block runs to the next line that is `---`. `raw` is that exact slice,
 * closing line and its newline included, so `raw + body === text` always holds. YAML problems are
 * reported with absolute file positions and never stop the parse: what the YAML parser could
 * recover is kept.
 */
import { LineCounter, parseDocument, visit, isMap, type Document } from 'yaml';
import type { Frontmatter } from '../ir/types.js';

export type FrontmatterProblemKind =
  | 'frontmatter-missing'
  | 'frontmatter-unclosed'
  | 'frontmatter-yaml-error'
  | 'frontmatter-yaml-warning'
  | 'frontmatter-not-mapping'
  | 'frontmatter-flow-style';

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

const OPEN = /^---[ \t]*(\r?\n|$)/;
const CLOSE = /^---[ \t]*\r?$/;
/** At most this many YAML errors per file; the rest are summarised in the last message. */
const MAX_YAML_ERRORS = 5;

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
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    if (CLOSE.test(text.slice(lineStart, lineEnd))) {
      yamlEnd = lineStart;
      closeEnd = nl < 0 ? text.length : nl + 1;
      break;
    }
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  if (closeEnd < 0) {
    return {
      frontmatter: none,
      problems: [{ kind: 'frontmatter-unclosed', offset: 0, endOffset: 3, message: 'frontmatter opened by --- on line 1 is never closed by a --- line; the whole file is read as body' }],
    };
  }
  const raw = text.slice(0, closeEnd);
  const yaml = text.slice(yamlStart, yamlEnd);
  const { data, problems, document } = parseYaml(yaml, yamlStart);
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
    doc = parseDocument(yaml, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: false });
  } catch (err) {
    problems.push({ kind: 'frontmatter-yaml-error', offset: base, message: `YAML could not be parsed: ${firstLine(String(err))}` });
    return { data: null, problems };
  }
  doc.errors.slice(0, MAX_YAML_ERRORS).forEach((e, i) => {
    const more = i === MAX_YAML_ERRORS - 1 && doc.errors.length > MAX_YAML_ERRORS ? ` (and ${doc.errors.length - MAX_YAML_ERRORS} more YAML errors)` : '';
    const quote = e.code === 'MISSING_CHAR' ? openingQuote(yaml, e.pos[0], e.message) : -1;
    if (quote >= 0) {
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
  } catch (err) {
    problems.push({ kind: 'frontmatter-yaml-error', offset: base, message: `YAML could not be converted to data: ${firstLine(String(err))}` });
  }
  return { data, problems, document: doc };
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
