/**
 * A skill's inputs and outputs as artifact types (GoS's I/O fields, found deterministically):
 * every line that names an artifact of rules/artifacts.json is read for its role. The nearest cue
 * before the mention decides: "from" or a consumption verb makes it an input, a production verb an
 * output, "to"/"into" after a production verb an output ("convert the PDF to DOCX": pdf in, docx
 * out). Without a cue, a section headed Inputs/Output… gives the role; otherwise the mention has
 * none. The frontmatter description counts like a body line.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Parent } from '../ir/types.js';
import { packageRoot } from '../util/package-root.js';
import { validateAgainst } from '../schema/validate.js';
import { stem } from '../text/tokens.js';

export interface ArtifactLexicon {
  /** Artifact type of a lower-case word or extension. */
  readonly typeOf: ReadonlyMap<string, string>;
  readonly produce: ReadonlySet<string>;
  readonly consume: ReadonlySet<string>;
  readonly outputHeadings: ReadonlySet<string>;
  readonly inputHeadings: ReadonlySet<string>;
  /** General-purpose formats (rules/artifacts.json `carriers`): a handoff over one needs a shared subject. */
  readonly carriers: ReadonlySet<string>;
  /**
   * Whether a line has a word (a run of ASCII letters and digits, any case) that names an
   * artifact: one test instead of splitting every line into words, where most lines name none.
   */
  readonly namesArtifact: RegExp;
}

export interface ArtifactDoc {
  readonly artifacts: Record<string, readonly string[]>;
  readonly produce: readonly string[];
  readonly consume: readonly string[];
  readonly outputHeadings: readonly string[];
  readonly inputHeadings: readonly string[];
  readonly carriers?: readonly string[];
}

let cached: ArtifactLexicon | undefined;

export function loadArtifactLexicon(): ArtifactLexicon {
  if (cached) return cached;
  const doc = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'rules', 'artifacts.json'), 'utf8')) as ArtifactDoc;
  const check = validateAgainst('artifacts', doc);
  if (!check.valid) throw new Error(`rules/artifacts.json is invalid: ${check.errors.join('; ')}`);
  return (cached = artifactLexiconFrom(doc));
}

export function artifactLexiconFrom(doc: ArtifactDoc): ArtifactLexicon {
  const typeOf = new Map<string, string>();
  for (const type of Object.keys(doc.artifacts).sort()) for (const w of doc.artifacts[type]!) if (!typeOf.has(w)) typeOf.set(w, type);
  return {
    typeOf,
    produce: new Set(doc.produce.map(stem)),
    consume: new Set(doc.consume.map(stem)),
    outputHeadings: new Set(doc.outputHeadings),
    inputHeadings: new Set(doc.inputHeadings),
    carriers: new Set(doc.carriers ?? []),
    namesArtifact: wordsTest([...typeOf.keys()]),
  };
}

/**
 * An expression that finds, case-insensitively, any of `words` as a whole run of [A-Za-z0-9]:
 * what lineRoles' word split would look up. A word that is not lower-case letters and digits
 * could never equal a lower-cased run, so it is left out. No word: it never matches.
 */
function wordsTest(words: readonly string[]): RegExp {
  const usable = words.filter((w) => /^[a-z0-9]+$/.test(w));
  return usable.length === 0 ? /(?!)/ : new RegExp(`(?<![A-Za-z0-9])(?:${usable.join('|')})(?![A-Za-z0-9])`, 'i');
}

export type Role = 'input' | 'output';

export interface ArtifactMention {
  readonly type: string;
  readonly role: Role;
  /** Library-relative file and 1-based line. */
  readonly file: string;
  readonly line: number;
  /**
   * Where the skill says it: `declared` in its frontmatter description or under an Inputs/Outputs
   * heading (what the skill is for), `prose` in a body line, `code` in a code block (an example's
   * `import json` or `package.json` says nothing about what the skill takes or makes).
   */
  readonly where: 'declared' | 'prose' | 'code';
}

export interface SkillIO {
  readonly mentions: readonly ArtifactMention[];
  /** Types mentioned more often as input than as output (and at least once as input), sorted. */
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

type Cue = 'produce' | 'consume' | 'from' | 'target';

/** Roles of the artifact mentions on one line; `headingRole` applies where no cue precedes a mention. */
export function lineRoles(line: string, lex: ArtifactLexicon, headingRole: Role | null): { type: string; role: Role }[] {
  const out: { type: string; role: Role }[] = [];
  // Most lines name no artifact: they have no roles, and their words need no split or stemming.
  if (!lex.namesArtifact.test(line)) return out;
  const ws = [...line.matchAll(/[a-z0-9]+/gi)].map((m) => m[0].toLowerCase());
  const cues: (Cue | null)[] = ws.map((w) => {
    if (w === 'from') return 'from';
    if (w === 'to' || w === 'into') return 'target';
    const s = stem(w);
    if (lex.produce.has(s)) return 'produce';
    if (lex.consume.has(s)) return 'consume';
    return null;
  });
  for (let i = 0; i < ws.length; i++) {
    const type = lex.typeOf.get(ws[i]!);
    if (!type) continue;
    let role: Role | null = headingRole;
    for (let j = i - 1; j >= Math.max(0, i - 6); j--) {
      const c = cues[j];
      if (!c) continue;
      if (c === 'from' || c === 'consume') role = 'input';
      else if (c === 'target') role = cues.slice(0, j).includes('produce') ? 'output' : role;
      else role = convertsLater(ws, cues, i, lex) ? 'input' : 'output';
      break;
    }
    if (role) out.push({ type, role });
  }
  return out;
}

/** "convert X to Y": X is what is converted (an input) when a target artifact follows. */
function convertsLater(ws: readonly string[], cues: readonly (Cue | null)[], at: number, lex: ArtifactLexicon): boolean {
  for (let k = at + 1; k < Math.min(ws.length, at + 6); k++) {
    if (cues[k] === 'target') return ws.slice(k + 1, k + 5).some((w) => lex.typeOf.has(w));
    if (cues[k] === 'produce' || cues[k] === 'consume') return false;
  }
  return false;
}

export function skillIO(p: Parent, lex: ArtifactLexicon): SkillIO {
  const mentions: ArtifactMention[] = [];
  const description = p.frontmatter.data?.['description'];
  if (typeof description === 'string') {
    for (const m of lineRoles(description, lex, null)) mentions.push({ ...m, file: p.file, line: p.frontmatter.yamlLine, where: 'declared' });
  }
  for (const u of p.units) {
    const headingRole = roleOfHeading(u.heading, lex);
    const lines = u.text.split('\n');
    const code = codeLines(u);
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!;
      if (!/[a-z]/i.test(text)) continue;
      const isHeading = i === 0 && u.kind === 'section';
      const where = code.has(i) ? 'code' : headingRole && !isHeading ? 'declared' : 'prose';
      for (const m of lineRoles(text, lex, isHeading ? null : headingRole)) mentions.push({ ...m, file: p.file, line: u.line + i, where });
    }
  }
  const count = new Map<string, { input: number; output: number }>();
  for (const m of mentions) {
    const c = count.get(m.type) ?? { input: 0, output: 0 };
    c[m.role]++;
    count.set(m.type, c);
  }
  const types = [...count.keys()].sort();
  return {
    mentions,
    inputs: types.filter((t) => count.get(t)!.input > count.get(t)!.output),
    outputs: types.filter((t) => count.get(t)!.output >= count.get(t)!.input),
  };
}

/**
 * Everything of a parent that skillIO reads, as one string: a key for its result kept between
 * builds (hashed by the caller). Adding a read to skillIO means adding it here.
 */
export function skillIOInput(p: Parent): string {
  return JSON.stringify([
    p.file,
    typeof p.frontmatter.data?.['description'] === 'string' ? p.frontmatter.data['description'] : null,
    p.frontmatter.yamlLine,
    p.units.map((u) => [u.text, u.heading, u.kind, u.line, u.start, u.codeBlocks.map((cb) => [cb.line, cb.start, cb.end])]),
  ]);
}

/** Whether a value read back from the build cache has the shape of SkillIO. */
export function isSkillIO(v: unknown): v is SkillIO {
  if (typeof v !== 'object' || v === null) return false;
  const { mentions, inputs, outputs } = v as Record<string, unknown>;
  const strings = (x: unknown) => Array.isArray(x) && x.every((e) => typeof e === 'string');
  return (
    strings(inputs) &&
    strings(outputs) &&
    Array.isArray(mentions) &&
    mentions.every((m: unknown) => {
      if (typeof m !== 'object' || m === null) return false;
      const { type, role, file, line, where } = m as Record<string, unknown>;
      return typeof type === 'string' && (role === 'input' || role === 'output') && typeof file === 'string' && Number.isInteger(line) && (where === 'declared' || where === 'prose' || where === 'code');
    })
  );
}

/** Indexes (0-based, within the unit's text) of the lines of its code blocks, fences included. */
function codeLines(u: Parent['units'][number]): Set<number> {
  const out = new Set<number>();
  for (const cb of u.codeBlocks) {
    const from = cb.line - u.line;
    const span = u.text.slice(Math.max(0, cb.start - u.start), Math.max(0, cb.end - u.start)).split('\n').length;
    for (let k = 0; k < span; k++) out.add(from + k);
  }
  return out;
}

function roleOfHeading(heading: string | null, lex: ArtifactLexicon): Role | null {
  if (!heading) return null;
  const ws = heading.toLowerCase().match(/[a-z]+/g) ?? [];
  if (ws.some((w) => lex.outputHeadings.has(w))) return 'output';
  if (ws.some((w) => lex.inputHeadings.has(w))) return 'input';
  return null;
}
