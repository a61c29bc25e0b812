/**
 * Diagnostics are plain data: a stable code, a severity, a library-relative file and a 1-based
 * position. Every code skillc can emit is listed in DIAGNOSTIC_CODES; codes are never reused
 * (a retired code stays here as a comment). Ranges: SKC0xx driver/CLI, SKC1xx discovery and
 * parse, SKC2xx propose/extract, SKC3xx verify, SKC4xx bind, SKC5xx rewrite, SKC6xx emit, SKC7xx the model-assisted passes.
 */

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Stable code, e.g. "SKC111". */
  readonly code: string;
  /** Stable kebab-case name of the code, e.g. "frontmatter-unclosed". */
  readonly name: string;
  readonly severity: Severity;
  /** The pass (or stage) that produced it. */
  readonly pass: string;
  /** Library-relative POSIX path of the file or folder concerned. */
  readonly file: string;
  /** 1-based line and column (UTF-16 code units, as JavaScript strings and SARIF count). */
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly message: string;
}

export interface DiagnosticCodeInfo {
  readonly code: string;
  readonly severity: Severity;
  readonly description: string;
}

export const DIAGNOSTIC_CODES = {
  'internal-error': { code: 'SKC001', severity: 'error', description: 'A pass threw on one skill; that skill was skipped and the build went on.' },
  'library-unreadable': { code: 'SKC100', severity: 'error', description: 'The library root does not exist or cannot be read.' },
  'skill-file-not-a-file': { code: 'SKC101', severity: 'error', description: 'An entry named SKILL.md is a directory or another non-regular file; the folder is not a skill.' },
  'symlink-not-followed': { code: 'SKC102', severity: 'info', description: 'Symbolic links are recorded but never followed, so a library cannot reach outside itself or loop.' },
  'entry-unreadable': { code: 'SKC103', severity: 'error', description: 'A file or folder could not be read (permissions, I/O error); it was left out.' },
  'skill-file-empty': { code: 'SKC104', severity: 'warning', description: 'SKILL.md is empty: the skill is kept with an empty preamble and no frontmatter.' },
  'invalid-utf8': { code: 'SKC105', severity: 'warning', description: 'SKILL.md is not valid UTF-8; invalid bytes were decoded as U+FFFD and the parent is marked lossy.' },
  'byte-order-mark': { code: 'SKC106', severity: 'info', description: 'SKILL.md starts with a UTF-8 byte order mark; it is not part of the decoded text.' },
  'skill-file-large': { code: 'SKC107', severity: 'warning', description: 'SKILL.md is larger than the size at which agents can read it whole; nothing of it is truncated (a body over 256 KiB is split into units by the line-level scan, SKC122).' },
  'skill-file-too-large': { code: 'SKC108', severity: 'error', description: 'SKILL.md exceeds --max-skill-bytes; the skill was skipped.' },
  'misnamed-skill-file': { code: 'SKC109', severity: 'warning', description: 'A file whose name is SKILL.md in another letter case; only SKILL.md marks a skill.' },
  'frontmatter-missing': { code: 'SKC110', severity: 'warning', description: 'SKILL.md does not start with a --- YAML frontmatter block.' },
  'frontmatter-unclosed': { code: 'SKC111', severity: 'error', description: 'The frontmatter opened by --- on line 1 is never closed; the whole file is treated as body.' },
  'frontmatter-yaml-error': { code: 'SKC112', severity: 'error', description: 'The frontmatter is not valid YAML; what could be recovered is kept.' },
  'frontmatter-not-mapping': { code: 'SKC113', severity: 'error', description: 'The frontmatter parses, but not to a mapping of keys to values.' },
  'frontmatter-flow-style': { code: 'SKC114', severity: 'warning', description: 'A flow-style collection ({…} or […]) in the frontmatter: valid YAML 1.2, rejected by the strict YAML the reference validator uses.' },
  'frontmatter-yaml-warning': { code: 'SKC115', severity: 'warning', description: 'The YAML parser warned about the frontmatter (for example a duplicate key or an unresolved tag).' },
  'frontmatter-too-large': { code: 'SKC116', severity: 'error', description: 'The frontmatter block is larger than skillc parses (64 KiB) or nests flow collections more than 64 levels deep; it was kept verbatim but not read as YAML, so the skill has no fields.' },
  'unclosed-code-fence': { code: 'SKC120', severity: 'warning', description: 'A fenced code block is never closed, so everything after it, headings included, is code.' },
  'contract-dropped': { code: 'SKC300', severity: 'warning', description: 'A contract was dropped because skillc could not check or emit it (its TypeScript declaration does not compile, or a check threw on it); the build went on without it, and the skills it would have rewritten stay as they are.' },
  'contradicts-contract': { code: 'SKC503', severity: 'info', description: 'A line outside the rewritten code blocks spells out an invoked procedure with another verb than its contract\'s template; it is left as written, since rewording it into an invoke would change what the skill says.' },
  'parent-not-rewritten': { code: 'SKC502', severity: 'warning', description: 'Rewriting or rendering one skill failed inside skillc; the skill is copied unchanged and the build went on.' },
  'rewrite-cleanup': { code: 'SKC500', severity: 'info', description: 'Rewrite Cleanup replaced a line that contradicts an invoked contract (same objects, another verb) with the invoke; the original is kept in SKILL.replaced.md.' },
  'rewrite-postcheck-failed': { code: 'SKC501', severity: 'error', description: 'A rewritten skill failed its post-check (an invoke missing or text added from nowhere); its cleanup edits were undone.' },
  'model-call-failed': { code: 'SKC700', severity: 'warning', description: 'A model request failed (authentication, unknown model, rate limit or timeout after retries, connection); the item keeps its deterministic result.' },
  'model-reply-invalid': { code: 'SKC701', severity: 'warning', description: 'A model reply is not JSON or violates the reply schema; the item keeps its deterministic result.' },
  'model-reply-rejected': { code: 'SKC702', severity: 'warning', description: 'A model reply failed a deterministic check (an ungrounded template, a binding not in the unit, a cleanup that drops an invoke or adds content); the item keeps its deterministic result.' },
  'model-declined': { code: 'SKC703', severity: 'info', description: 'The model judged that a cluster is not one procedure (_extraction_failed) or that a candidate unit is not a call (should_invoke false); the judgement stands.' },
  'model-request-skipped': { code: 'SKC704', severity: 'info', description: 'An item is too large to send in one model request; it keeps its deterministic result.' },
  'model-text-unsupported': { code: 'SKC705', severity: 'warning', description: 'Text a model wrote for a contract (its trigger, a precondition or postcondition, a field description, side-effect evidence, an output name) holds words no member unit holds; that text was left out (the deterministic trigger or description stands in), and the rest of the reply was used.' },
  'replaced-file-name-taken': { code: 'SKC600', severity: 'warning', description: 'The skill already has a file named SKILL.replaced.md, so the replaced sections were written under another name.' },
  'parse-bounded': { code: 'SKC122', severity: 'warning', description: 'The markdown is too large, too deeply nested or too costly for the full parser (whose work grows faster than the file on such input); it was split into units by a line-level scan instead (headings, fences, links and list items with exact offsets), is copied through unchanged and takes no part in contract mining.' },
  'large-file-not-scanned': { code: 'SKC123', severity: 'warning', description: 'A script or reference is larger than skillc reads as text (8 MiB); it is hashed and copied to the dist in chunks, but its text was not scanned for risky calls.' },
  'nested-skill': { code: 'SKC121', severity: 'info', description: 'A skill folder lies inside another skill; its files belong to the inner skill only.' },
  'special-file': { code: 'SKC124', severity: 'warning', description: 'A named pipe, socket or device in the library: it is not read (reading a FIFO would wait forever) and not copied to the dist.' },
  'symlink-outside-skill': { code: 'SKC125', severity: 'warning', description: 'A symbolic link whose target is absolute or leads out of its skill folder: recreated in the dist it would point an agent at a file outside the skill, or dangle, so it is left out.' },
  'malicious-install': { code: 'SKC130', severity: 'error', description: 'A skill (its SKILL.md or a script) has an install step of a malware technique of rules/malicious-patterns.json: decoding and running text, running a script from a raw IP address, URL shortener, paste site or plain http, running an executable from a password-protected archive, pasting a command from an external page, turning off OS malware protection, or sending credentials out. The skill is copied as it is, no contract drawn from it is promoted (its risk is 1.0), and `skillc query` marks it.' },
  'dist-in-library': { code: 'SKC126', severity: 'info', description: 'A folder inside the library is a skillc dist (its manifest.json says so); its copies of skills are not read as skills of the library.' },
} as const satisfies Record<string, DiagnosticCodeInfo>;

export type DiagnosticName = keyof typeof DIAGNOSTIC_CODES;

export interface DiagnosticInput {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly message: string;
  /** Overrides the code's default severity (rarely: e.g. a warning that is fatal for one file). */
  readonly severity?: Severity;
}

export function makeDiagnostic(pass: string, name: DiagnosticName, input: DiagnosticInput): Diagnostic {
  const info = DIAGNOSTIC_CODES[name];
  const d: Diagnostic = {
    code: info.code,
    name,
    severity: input.severity ?? info.severity,
    pass,
    file: input.file,
    line: input.line ?? 1,
    column: input.column ?? 1,
    message: input.message,
    ...(input.endLine !== undefined ? { endLine: input.endLine } : {}),
    ...(input.endColumn !== undefined ? { endColumn: input.endColumn } : {}),
  };
  return d;
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Total order: file, line, column, code, message. Makes reports independent of pass scheduling. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.column !== b.column) return a.column - b.column;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  if (a.severity !== b.severity) return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

export function countBySeverity(diags: readonly Diagnostic[]): Record<Severity, number> {
  const out: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diags) out[d.severity]++;
  return out;
}
