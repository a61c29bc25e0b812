/**
 * The intermediate representation: plain, JSON-serialisable data. Passes read one IR value and
 * return the fields they add; nothing in here holds a handle, a class instance or a function.
 * Offsets are JavaScript string indices (UTF-16 code units) into a file's decoded text; lines and
 * columns are 1-based.
 */
import type { Diagnostic } from './diagnostics.js';

/** How a file other than SKILL.md is classed (SPEC §2, pass 1). */
export type FileKind = 'script' | 'reference' | 'asset';

export interface SkillFileRef {
  /** Library-relative POSIX path. */
  readonly path: string;
  /** Path relative to the skill folder. */
  readonly relPath: string;
  readonly kind: FileKind;
  readonly bytes: number;
  readonly sha256: string;
  /** Decoded text for scripts and references (text files); absent for binary assets. */
  readonly text?: string;
  /** For a symbolic link: where it points (never followed). */
  readonly symlinkTarget?: string;
}

/** One skill as read from disk, before parsing. Produced by the loader (the only reader). */
export interface SourceSkill {
  /** The skill folder, library-relative POSIX ("." for the library root). */
  readonly path: string;
  /** Library-relative path of its SKILL.md. */
  readonly file: string;
  readonly content: Uint8Array;
  readonly files: readonly SkillFileRef[];
}

export interface SourceLibrary {
  readonly skills: readonly SourceSkill[];
  /** Every input file with its hash, sorted by path: the build manifest. */
  readonly inputs: readonly { readonly path: string; readonly bytes: number; readonly sha256: string }[];
  /** Problems found while discovering and reading (skipped skills among them). */
  readonly diagnostics: readonly Diagnostic[];
  /** Skills that were found but could not be read; each has an error diagnostic. */
  readonly skipped: readonly SkippedSkill[];
}

export interface SkippedSkill {
  readonly path: string;
  readonly code: string;
  readonly reason: string;
}

export type Encoding = 'utf-8' | 'utf-8-bom' | 'utf-8-invalid';

export interface Frontmatter {
  /** Exact characters from the opening --- through the closing --- and its newline; "" when none. */
  readonly raw: string;
  /** The YAML between the fences (raw without the fence lines). */
  readonly yaml: string;
  /** Parsed mapping, or null when absent or not a mapping. */
  readonly data: Readonly<Record<string, unknown>> | null;
  /** 1-based line of the first YAML line (2 when present). */
  readonly yamlLine: number;
}

export interface CodeBlock {
  readonly lang: string | null;
  readonly meta: string | null;
  /** The code itself (without fences). */
  readonly value: string;
  readonly fenced: boolean;
  /** false for a fence that runs to the end of the document. */
  readonly closed: boolean;
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

export interface InlineCode {
  readonly value: string;
  readonly start: number;
  readonly line: number;
}

export interface Link {
  readonly url: string;
  readonly text: string;
  readonly kind: 'link' | 'image' | 'definition';
  readonly start: number;
  readonly line: number;
}

export interface Bullet {
  readonly ordered: boolean;
  /** The item's number in an ordered list (start + position), null for bullets. */
  readonly number: number | null;
  /** Nesting depth, 1 for a top-level list. */
  readonly depth: number;
  /** Plain text of the item's own paragraphs, whitespace-collapsed (nested lists excluded). */
  readonly text: string;
  readonly checked: boolean | null;
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

export interface Unit {
  /** Globally unique: "<parent path>#<index>". */
  readonly id: string;
  readonly index: number;
  /** Unit 0 is the preamble: everything between the frontmatter and the first heading. */
  readonly kind: 'preamble' | 'section';
  readonly heading: string | null;
  /** Headings of the enclosing sections, outermost first, this unit's own heading last. */
  readonly headingPath: readonly string[];
  /** Heading level 1–6; 0 for the preamble. */
  readonly level: number;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  /** Verbatim source slice [start, end): never re-serialised. */
  readonly text: string;
  readonly codeBlocks: readonly CodeBlock[];
  readonly inlineCode: readonly InlineCode[];
  readonly links: readonly Link[];
  readonly bullets: readonly Bullet[];
}

export interface Parent {
  /** Skill folder, library-relative POSIX; stable and unique. */
  readonly path: string;
  /** Library-relative path of the SKILL.md. */
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly encoding: Encoding;
  /** Number of lines of the decoded text. */
  readonly lines: number;
  readonly frontmatter: Frontmatter;
  readonly units: readonly Unit[];
  readonly scripts: readonly SkillFileRef[];
  readonly references: readonly SkillFileRef[];
  readonly assets: readonly SkillFileRef[];
}

/** The whole build's IR. Each pass fills in more of it. */
export interface BuildIR {
  readonly source: SourceLibrary;
  readonly parents?: readonly Parent[];
}
