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
  /** Decoded text of a text file (scripts, references, text assets); absent for binary files. */
  readonly text?: string;
  /** For a symbolic link: where it points (never followed). */
  readonly symlinkTarget?: string;
  /** Permission bits of the input file (st.mode & 0o777), kept on its copy in dist/skills. */
  readonly mode?: number;
}

/** One skill as read from disk, before parsing. Produced by the loader (the only reader). */
export interface SourceSkill {
  /** The skill folder, library-relative POSIX ("." for the library root). */
  readonly path: string;
  /** Library-relative path of its SKILL.md. */
  readonly file: string;
  readonly content: Uint8Array;
  /** Permission bits of the SKILL.md (st.mode & 0o777). */
  readonly mode?: number;
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

export interface BoundedParse {
  readonly reason: 'size' | 'nesting' | 'containers' | 'inline';
  /** Where the budget was first exceeded: an index into the decoded text, and its line. */
  readonly offset: number;
  readonly line: number;
  readonly detail: string;
}

export interface Parent {
  /** Skill folder, library-relative POSIX; stable and unique. */
  readonly path: string;
  /** Library-relative path of the SKILL.md. */
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  /** Permission bits of the SKILL.md, kept on its copy or rewrite in dist/skills. */
  readonly mode?: number;
  readonly encoding: Encoding;
  /** Number of lines of the decoded text. */
  readonly lines: number;
  readonly frontmatter: Frontmatter;
  readonly units: readonly Unit[];
  /**
   * Set when the body was over the parse budget (too large, too deeply nested, or too costly for
   * the full parser): its units come from the line-level scan, and the skill is copied through
   * without taking part in contract mining.
   */
  readonly bounded?: BoundedParse;
  /**
   * Malicious install steps found in the skill (issue 20; rules/malicious-patterns.json), in
   * SKILL.md or a script, in file order. Absent when there are none.
   */
  readonly malicious?: readonly MaliciousMark[];
  readonly scripts: readonly SkillFileRef[];
  readonly references: readonly SkillFileRef[];
  readonly assets: readonly SkillFileRef[];
}

export interface MaliciousMark {
  /** Technique id (a lint rule id too): decode-and-execute, untrusted-remote-script, … */
  readonly technique: string;
  /** Library-relative file, 1-based line and column. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** A unit's frame (SPEC §1): what the unit does, to what, with which code and scripts. */
export interface Frame {
  readonly unit: string;
  /** Verb class from rules/verbs.json, or null when the unit names no action. */
  readonly verb: string | null;
  /** Stemmed object nouns from the heading (or first step), at most three. */
  readonly objects: readonly string[];
  readonly codeLangs: readonly string[];
  /** Library-relative paths of the parent's scripts this unit links to or names. */
  readonly linkedScripts: readonly string[];
}

export interface Cluster {
  /** Stable: derived from the sorted member unit ids. */
  readonly id: string;
  /** Member unit ids, sorted by parent path then unit index. */
  readonly units: readonly string[];
  /** Source parents (sorted, unique). */
  readonly parents: readonly string[];
  readonly verb: string;
  /** Objects shared by at least half of the members. */
  readonly objects: readonly string[];
  /** Smallest cosine among the edges that joined the cluster (1 for an author template's cluster). */
  readonly minLinkCosine: number;
  /** How it was found: single-linkage over section similarity, or an action template authors wrote. */
  readonly origin: 'similarity' | 'author-template';
  /** For an author template's cluster: the template, its slots, and how the authors spelt the placeholders. */
  readonly template?: { readonly template: string; readonly slots: readonly string[]; readonly source: 'code' | 'inline' | 'step'; readonly spellings: readonly string[] };
}

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'file' | 'json' | 'table' | 'image' | 'document' | 'list' | 'enum' | 'object';

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly required: boolean;
  readonly description: string;
}

export type SideEffectKind = 'filesystem' | 'network' | 'subprocess' | 'user-visible';

export interface SideEffect {
  readonly kind: SideEffectKind;
  /** Risk sink ids this declaration covers (from rules/risk-sinks.json); may be empty. */
  readonly sinks: readonly string[];
  readonly evidence: string;
}

/** One instantiation of a template in a member unit: the slot values seen there. */
export interface TemplateInstance {
  readonly unit: string;
  readonly line: number;
  readonly text: string;
  readonly bindings: Readonly<Record<string, string>>;
}

export interface ActionTemplate {
  /** Constant text with {slot} holes, e.g. "pip install {package}". */
  readonly template: string;
  readonly slots: readonly string[];
  /** Where the template came from: a fenced command, an inline code span or a numbered step. */
  readonly source: 'code' | 'inline' | 'step';
  readonly instances: readonly TemplateInstance[];
}

export interface Contract {
  readonly id: string;
  readonly cluster: string;
  readonly trigger: string;
  readonly input_schema: readonly FieldSpec[];
  readonly output_schema: readonly FieldSpec[];
  readonly preconditions: readonly string[];
  readonly postconditions: readonly string[];
  readonly resources: { readonly scripts: readonly string[]; readonly references: readonly string[]; readonly tools: readonly string[] };
  readonly side_effects: readonly SideEffect[];
  readonly templates: readonly ActionTemplate[];
  /**
   * What one invoke stands for: a whole section (`section`, the default extraction), or one action
   * line (`action`, an author template such as `take {object} from {receptacle}`; a call-site is a
   * line, and a section may hold calls of several actions).
   */
  readonly scope: 'section' | 'action';
  readonly source_parents: readonly string[];
  readonly provenance: { readonly method: 'deterministic' | 'model'; readonly version: number; readonly model?: string; readonly cacheKey?: string };
}

/** A cluster for which no coherent contract could be drafted, and why. */
export interface ExtractionFailure {
  readonly cluster: string;
  readonly reason: string;
}

export type Decision = 'auto_promote' | 'review' | 'reject';
export type CheckName = 'extraction_failed' | 'schema_invalid' | 'risk' | 'form' | 'binding' | 'coverage' | 'replacement' | 'score';

export interface Evidence {
  readonly parent: string;
  readonly unit: string;
  readonly file: string;
  readonly line: number;
  readonly detail: string;
}

export interface RiskHit {
  readonly sink: string;
  readonly category: string;
  readonly weight: number;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly snippet: string;
  readonly declared: boolean;
}

export interface Profile {
  readonly cluster: string;
  readonly contract: string | null;
  readonly scores: { readonly coverage: number; readonly coverageMin: number; readonly binding: number; readonly replacement: number; readonly risk: number };
  readonly score: number;
  readonly decision: Decision;
  /** For a rejection: the first check that failed, in gate order. */
  readonly firstFailed: CheckName | null;
  readonly reason: string;
  /** Evidence spans: for a promotion the witness, for a rejection what was missing. */
  readonly evidence: readonly Evidence[];
  readonly risks: readonly RiskHit[];
}

/** One entry of dist/candidates.json: written by emit, read by `skillc explain`. */
export interface CandidateRecord {
  readonly cluster: Cluster;
  readonly members: readonly { readonly unit: string; readonly file: string; readonly line: number; readonly heading: string | null }[];
  readonly profile: Profile;
  readonly extractionFailure?: string;
}

/** One concrete action line of a call-site's unit and the contract template it instantiates. */
export interface CallSiteAction {
  readonly template: string;
  readonly line: number;
  readonly text: string;
}

/**
 * A unit of a parent replaced by `invoke(<contract>, {bindings})` (SPEC §1, pass 5). Bindings are
 * substrings of the unit; instantiating the templates with them gives back `actions` exactly.
 */
export interface CallSite {
  readonly unit: string;
  readonly parent: string;
  readonly file: string;
  readonly line: number;
  readonly contract: string;
  /** A member of the contract's cluster, or a unit elsewhere whose frame and action lines match it. */
  readonly detection: 'member' | 'match';
  readonly bindings: Readonly<Record<string, string>>;
  readonly actions: readonly CallSiteAction[];
  /** The invoke notation written into the skeleton. */
  readonly invoke: string;
  /** Who chose the bindings: slot alignment, or a model reply that passed the same post-checks. */
  readonly binder: 'deterministic' | 'model';
  /** Set by the rewrite pass: the code block of the original text the invoke replaced. */
  readonly replaced?: { readonly start: number; readonly end: number; readonly line: number };
}

/**
 * Where a candidate call-site was dropped: detection, the binding post-check, the round trip, the
 * type check, the model's Binding Extraction judging that the unit is not a call (`model`), a
 * passage that is never rewritten (a warning, a branch, an API reference, an example with its
 * output: `never-rewrite`), an invoke that would not reproduce the lines it replaces token for
 * token (`faithful`), a rewrite that costs more tokens than it saves (`pay`), or a failure inside
 * skillc while rewriting the parent (`rewrite`).
 */
export const CALL_SITE_STAGES = ['detect', 'binding', 'round-trip', 'type-check', 'model', 'never-rewrite', 'faithful', 'pay', 'rewrite'] as const;
export type CallSiteStage = (typeof CALL_SITE_STAGES)[number];

export interface DroppedCallSite {
  readonly unit: string;
  readonly parent: string;
  readonly file: string;
  readonly line: number;
  readonly contract: string;
  readonly detection: 'member' | 'match';
  readonly stage: CallSiteStage;
  readonly reason: string;
}

/** A residual line rewritten by Rewrite Cleanup because it contradicts an invoked contract. */
export interface Cleanup {
  readonly parent: string;
  readonly unit: string;
  readonly line: number;
  readonly contract: string;
  readonly before: string;
  readonly after: string;
  /** Deterministic alignment against the templates, or a model reply that passed the post-check. */
  readonly by: 'deterministic' | 'model';
}

/** A parent after pass 6: the rewritten SKILL.md text and what was done to it. */
export interface RewrittenParent {
  readonly parent: string;
  /** The whole rewritten SKILL.md (frontmatter kept byte for byte). */
  readonly text: string;
  /** Unit ids replaced by invoke lines, in document order. */
  readonly callSites: readonly string[];
  /** Sections whose body was replaced by a reference to a shared passage. */
  readonly passages: readonly { readonly unit: string; readonly passage: string }[];
  readonly cleanups: readonly Cleanup[];
  /** Name of the file in the skill folder that keeps the original text of replaced and cleaned units. */
  readonly replacedFile: string;
  /** Unit ids whose text Rewrite Cleanup changed (their originals are kept, like replaced units). */
  readonly cleanedUnits: readonly string[];
}

/**
 * What became of one item a model was asked about (SPEC §3; only with --llm). Items: a cluster
 * (extract), a candidate call-site (bind), a rewritten parent (rewrite). Outcomes:
 * - accepted: the reply was used;
 * - declined: the model judged the item is not a contract / not a call, and that judgement stands;
 * - rejected: the reply failed a deterministic check, so the deterministic result stands;
 * - failed: no usable reply (transport error, not JSON, schema violation); deterministic result;
 * - skipped: not asked (the item is too large for one request); deterministic result.
 */
export interface ModelReplyRecord {
  readonly pass: 'extract' | 'bind' | 'rewrite';
  readonly item: string;
  readonly file: string;
  readonly line: number;
  readonly outcome: 'accepted' | 'declined' | 'rejected' | 'failed' | 'skipped';
  readonly reason: string;
  /** The reply cache key (null when nothing was asked). */
  readonly cacheKey: string | null;
}

/** The whole build's IR. Each pass fills in more of it. */
/** One section that holds an instance of a shared passage: the body after its heading. */
export interface PassageMember {
  readonly parent: string;
  readonly unit: string;
  readonly file: string;
  /** 1-based line of the section's heading. */
  readonly line: number;
  /** The body: offsets into the parent's decoded text (after the heading line, through the end of the section). */
  readonly start: number;
  readonly end: number;
  /** Values of the passage's slots in this section. */
  readonly bindings: Readonly<Record<string, string>>;
}

/**
 * A shared passage (SPEC §1, issue 18): the body of a section that recurs, verbatim or with only
 * names and numbers changed, in three or more skills. Stated once in the library; a skeleton
 * references it where that pays, and what an agent reads is the skill as written.
 */
export interface Passage {
  readonly id: string;
  /** The heading text of its sections. */
  readonly heading: string;
  /** The body as a template: literal braces doubled, `{slot}` where members differ. */
  readonly text: string;
  readonly slots: readonly string[];
  readonly members: readonly PassageMember[];
}

export interface PassageUse {
  readonly passage: string;
  readonly unit: string;
  readonly referenced: boolean;
  readonly reason: string;
}

export interface BuildIR {
  readonly source: SourceLibrary;
  /** The verifier policy in force (rules/policy.json or --policy). */
  readonly policy?: import('../policy/policy.js').Policy;
  readonly parents?: readonly Parent[];
  /**
   * Per parent (in `parents` order), its section-body keys (passages/detect.ts bodyKeysOf) where a
   * parse process computed them alongside the parse, else null (a parse from the cache, or one in
   * this process): the passages pass then computes them itself. Never kept in the cache.
   */
  readonly sectionKeys?: readonly (readonly import('../passages/detect.js').BodyKey[] | null)[];
  /**
   * Skills whose SKILL.md is byte for byte an earlier skill's: mined once, so a copied skill
   * cannot make a procedure or a passage look recurrent.
   */
  readonly copies?: readonly { readonly copy: string; readonly of: string }[];
  /** Shared passages (passages pass). */
  readonly passages?: readonly Passage[];
  /** For every passage member: whether its skeleton references the passage, and why (rewrite pass). */
  readonly passageUse?: readonly PassageUse[];
  readonly frames?: readonly Frame[];
  readonly clusters?: readonly Cluster[];
  readonly contracts?: readonly Contract[];
  readonly extractionFailures?: readonly ExtractionFailure[];
  readonly profiles?: readonly Profile[];
  readonly callSites?: readonly CallSite[];
  readonly droppedCallSites?: readonly DroppedCallSite[];
  readonly rewrites?: readonly RewrittenParent[];
  /** With --llm: every item a model was asked about, by pass, in pass order. */
  readonly modelReplies?: readonly ModelReplyRecord[];
}
