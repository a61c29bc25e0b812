/**
 * The lint model: rules are modules with static metadata and a check function over one skill;
 * what they report is plain data (a message with a position and, when the fix is mechanical, text
 * edits on the original SKILL.md). Severities, disable comments and fixes are applied by the
 * engine, never by a rule, and formatters are pure functions of the results.
 */
import type { Frontmatter, Parent } from '../ir/types.js';
import type { LineIndex } from '../text/line-index.js';
import type { FrontmatterProblem } from '../text/frontmatter.js';
import type { FrontmatterView } from './frontmatter-view.js';
import type { LintServices } from './services.js';

export type RuleLevel = 'off' | 'warn' | 'error';
export type MessageSeverity = 'warning' | 'error';

/** What a rule is about: the Agent Skills specification, the body, safety, or an existing library. */
export type RuleCategory = 'spec' | 'content' | 'safety' | 'library';

/** A replacement of [start, end) of SKILL.md's decoded text by `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** A value's type in the frontmatter's data, as a fix's intended change names it. */
export type DataType = 'string' | 'number' | 'boolean' | 'null' | 'list' | 'map';

/**
 * One change a fix means to make to the frontmatter's data (the YAML read with its aliases
 * resolved): the value at `path`, which must exist and be of one of the `from` types, becomes
 * `to`. The engine re-parses the fixed text and keeps the fix only when the data equals the old
 * data with exactly these changes (see fix-check.ts).
 */
export interface DataChange {
  /** Keys from the frontmatter's top level down, with list indexes as numbers. */
  readonly path: readonly (string | number)[];
  readonly from: readonly DataType[];
  readonly to: string | number | boolean | null;
}

/** A JSON Schema (draft 2020-12) object; kept loose so rules can state theirs inline. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface LintRuleMeta {
  /** Stable kebab-case id: used in config, disable comments, SARIF; never reused for another check. */
  readonly id: string;
  readonly category: RuleCategory;
  /** One line: what the rule checks. */
  readonly summary: string;
  /** One paragraph: what it reports, why, and how to fix it. */
  readonly doc: string;
  readonly defaultLevel: RuleLevel;
  /** The level in --strict mode (matching the Agent Skills reference validator), when it differs. */
  readonly strictLevel?: RuleLevel;
  /** Whether some of its reports carry a safe, mechanical fix (--fix applies them). */
  readonly fixable: boolean;
  /** Schema of the rule's options object (the config's second tuple element). */
  readonly optionsSchema: JsonSchema;
  readonly defaultOptions: Readonly<Record<string, unknown>>;
  /** Whether the rule needs a built dist (`--dist`); such rules are skipped without one. */
  readonly needsDist?: boolean;
  /** Tags for SARIF (GitHub shows them); "security" enables security-severity. */
  readonly tags?: readonly string[];
  /** SARIF security-severity (0–10) for rules tagged "security". */
  readonly securitySeverity?: string;
  /**
   * false: a skillc-disable comment in the skill cannot turn the rule off, only the lint config
   * can. For the rules that catch malicious skills: the skill under check would vouch for itself.
   */
  readonly inlineDisable?: false;
}

export interface LintRule<O extends Record<string, unknown> = Record<string, unknown>> {
  readonly meta: LintRuleMeta;
  check(context: RuleContext, options: O): void | Promise<void>;
}

/** A report on SKILL.md (offsets into its decoded text) or on another file of the skill (line/column). */
export type RuleReport =
  | {
      readonly offset: number;
      readonly endOffset?: number;
      readonly message: string;
      readonly fix?: readonly TextEdit[];
      /**
       * What `fix` changes in the frontmatter's data. Absent or empty: nothing, the fix only
       * rewrites how the YAML is written. A fix whose re-parsed result differs is dropped.
       */
      readonly fixChanges?: readonly DataChange[];
      /** A further hint that is not applied (e.g. the invoke line to use). */
      readonly suggestion?: string;
    }
  | {
      /** Skill-relative path of a file other than SKILL.md. */
      readonly file: string;
      readonly line: number;
      readonly column: number;
      readonly message: string;
      readonly suggestion?: string;
    };

/** One skill, as the rules see it. Everything here is read-only data. */
export interface LintSubject {
  /** Absolute path of the skill folder. */
  readonly dir: string;
  /** Path of the skill folder as shown to the user (relative to the working directory, POSIX). */
  readonly displayDir: string;
  /** The folder's own name (what `name` must equal). */
  readonly folderName: string;
  /** Name of the skill file: SKILL.md, or a misnamed `skill.md` read in its place. */
  readonly fileName: string;
  /** SKILL.md's decoded text (without a byte order mark). */
  readonly text: string;
  readonly hasByteOrderMark: boolean;
  /** Whether the bytes were not valid UTF-8 (fixes are then never written). */
  readonly lossy: boolean;
  /**
   * What is wrong with the file's encoding, if anything: a UTF-16 byte order mark, the first byte
   * that is not UTF-8 (its offset in the bytes, and where its U+FFFD stands in `text`), or the first
   * NUL character of the text.
   */
  readonly encoding: { readonly utf16?: 'little-endian' | 'big-endian'; readonly invalid?: { readonly byteOffset: number; readonly byte: number; readonly offset: number }; readonly nul?: number };
  readonly lines: LineIndex;
  readonly frontmatter: Frontmatter;
  readonly frontmatterProblems: readonly FrontmatterProblem[];
  /** Keys of the frontmatter with their positions; null without a parsable mapping. */
  readonly fields: FrontmatterView | null;
  /** The parse IR: units with code blocks, links and bullets. */
  readonly parent: Parent;
  /** Unclosed fences the parse found (offset of the fence and the fence string). */
  readonly unclosedFences: readonly { readonly offset: number; readonly fence: string }[];
  /** Skill-relative POSIX paths of every file and folder in the skill. */
  readonly entries: ReadonlySet<string>;
}

export interface RuleContext {
  readonly subject: LintSubject;
  readonly strict: boolean;
  readonly services: LintServices;
  report(report: RuleReport): void;
}

/** One message in the output (ESLint's LintMessage shape, plus our file and suggestion). */
export interface LintMessage {
  readonly ruleId: string;
  readonly severity: MessageSeverity;
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly fix?: readonly TextEdit[];
  readonly suggestion?: string;
}

/** Messages of one file. */
export interface LintFileResult {
  /** Path relative to the working directory, POSIX. */
  readonly filePath: string;
  readonly messages: readonly LintMessage[];
  readonly errorCount: number;
  readonly warningCount: number;
  readonly fixableErrorCount: number;
  readonly fixableWarningCount: number;
  /** The fixed text, when --fix changed the file. */
  readonly output?: string;
}
