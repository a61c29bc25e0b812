/**
 * Which language a piece of code is, for the risk scanner.
 *
 * Maps a Markdown fence info string (```bash, ```py, ```console …) or a script's file extension
 * to the CodeLanguage the scanner parses it as. Interactive shell transcripts (```console,
 * ```shell-session) mix commands with their output, so they are also prepared here: prompts and
 * output lines are blanked with spaces, which leaves every remaining character at its original
 * line and column, so findings still point into the fence as written.
 */
import type { CodeLanguage } from './scan.js';

const FENCE_LANGUAGES: ReadonlyMap<string, CodeLanguage> = new Map<string, CodeLanguage>([
  ['bash', 'bash'],
  ['sh', 'bash'],
  ['shell', 'bash'],
  ['zsh', 'bash'],
  ['console', 'bash'],
  ['shell-session', 'bash'],
  ['python', 'python'],
  ['py', 'python'],
  ['python3', 'python'],
  ['js', 'javascript'],
  ['javascript', 'javascript'],
  ['mjs', 'javascript'],
  ['cjs', 'javascript'],
  ['jsx', 'javascript'],
  ['ts', 'typescript'],
  ['typescript', 'typescript'],
  ['tsx', 'typescript'],
]);

const EXTENSION_LANGUAGES: ReadonlyMap<string, CodeLanguage> = new Map<string, CodeLanguage>([
  ['.sh', 'bash'],
  ['.bash', 'bash'],
  ['.zsh', 'bash'],
  ['.py', 'python'],
  ['.js', 'javascript'],
  ['.mjs', 'javascript'],
  ['.cjs', 'javascript'],
  ['.jsx', 'javascript'],
  ['.ts', 'typescript'],
  ['.mts', 'typescript'],
  ['.cts', 'typescript'],
  ['.tsx', 'typescript'],
]);

/** Fence names whose content is a transcript of prompts and output rather than a script. */
const SESSION_FENCES: ReadonlySet<string> = new Set(['console', 'shell-session']);

/** The language word of a fence info string: "Python {linenos}" → "python", "{.bash}" → "bash". */
function fenceWord(fenceLang: string): string {
  const first = fenceLang.trim().replace(/^\{\s*/, '').split(/[\s{},]/, 1)[0] ?? '';
  return first.replace(/^\./, '').toLowerCase();
}

/**
 * The language to scan a code block or script as: the fence's language when it names one we
 * parse, else the file extension's, else null (not code we scan).
 */
export function languageOf(fenceLang: string | null, filePath?: string): CodeLanguage | null {
  if (fenceLang !== null) {
    const byFence = FENCE_LANGUAGES.get(fenceWord(fenceLang));
    if (byFence) return byFence;
  }
  if (filePath !== undefined) {
    const base = filePath.slice(Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\')) + 1);
    const dot = base.lastIndexOf('.');
    if (dot > 0) return EXTENSION_LANGUAGES.get(base.slice(dot).toLowerCase()) ?? null;
  }
  return null;
}

/** Whether a fence holds an interactive shell transcript (```console, ```shell-session). */
export function isShellSessionFence(fenceLang: string | null): boolean {
  return fenceLang !== null && SESSION_FENCES.has(fenceWord(fenceLang));
}

const PROMPT = /^([ \t]*)([$>]) /;
const BARE_PROMPT = /^[ \t]*\$[ \t]*\r?$/;

/**
 * Whether bash code reads as a transcript even if nobody said so: its first line that is neither
 * blank nor a `#` comment starts with a `$ ` prompt, which no script does (`$` is no command).
 */
export function looksLikeShellSession(code: string): boolean {
  for (const line of code.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    return /^[ \t]*\$ /.test(line);
  }
  return false;
}

/**
 * Turns a shell transcript into the script it ran, keeping every character's offset: lines that
 * start with a `$ ` or `> ` prompt (and lines continuing a command that ended in a backslash) are
 * commands with the prompt blanked; every other line is output and is blanked entirely.
 */
export function stripShellPrompts(code: string): string {
  const lines = code.split('\n');
  let continues = false;
  const out = lines.map((line) => {
    const prompt = PROMPT.exec(line);
    let command: string | null = null;
    if (prompt) command = ' '.repeat(prompt[0].length) + line.slice(prompt[0].length);
    else if (BARE_PROMPT.test(line)) command = ' '.repeat(line.length);
    else if (continues) command = line;
    continues = command !== null && /\\\r?$/.test(command);
    return command ?? ' '.repeat(line.length);
  });
  return out.join('\n');
}
