/**
 * Passages a call-site must never replace (SPEC §2 pass 6), whatever their templates match. An
 * invoke says "do this procedure"; next to a warning it would turn "avoid X" into "do X", under a
 * condition it would drop the branch, in an API reference it would stand for a parameter list, and
 * in an example it would hide the input whose output follows. Each check reads the code block's
 * surroundings inside its unit: the heading path, the prose just before the block (its lead-in),
 * the prose and code just after it, and the block itself. They are deliberately wide: a rewrite
 * missed costs a few tokens, a rewrite that changes the meaning costs the skill.
 */
import type { CodeBlock, Unit } from '../ir/types.js';

export type NeverRewriteKind = 'warning' | 'conditional' | 'api-reference' | 'example-output';

export interface NeverRewrite {
  readonly kind: NeverRewriteKind;
  readonly why: string;
}

/** Negation and warning words (and the marks that stand for them). */
const WARNING = /\b(avoid|avoided|don['’]?t|do not|does not|doesn['’]t|never|instead of|rather than|anti-?patterns?|bad|wrong|incorrect|deprecated|warnings?|caution|careful|not recommended|discouraged|pitfalls?|mistakes?|dangerous|unsafe|insecure|forbidden|must not|should not|shouldn['’]t|no longer)\b|[❌✗✘⚠🚫]|\bDON'T\b|\bBAD\b/i;
/** Words that make the passage one branch of several. */
const CONDITIONAL = /\b(if|else|otherwise|unless|alternatively|in case|depending on|whether|fallback|fall back|when (?:it|this|that|the \w+) fails?)\b|\b(?:on|for|with) (?:mac ?os|macos|osx|linux|windows|ubuntu|debian|fedora|centos|arch|alpine|wsl|powershell|cmd)\b/i;
/** Control flow inside the code: the block is a branch or a loop, not one procedure. */
const CODE_CONTROL = /^\s*(if|elif|else|fi|then|case|esac|for|while|until|do|done|try|except|catch|finally|switch)\b|\|\||&&/m;
/** Headings of reference material. */
const REFERENCE_HEADING = /\b(api reference|reference|endpoints?|parameters?|params|arguments?|args|options|flags|schema|fields|methods|properties|attributes|signature|syntax|cheat ?sheet|commands? list)\b/i;
/** Headings and lead-ins of examples that show what comes out. */
const EXAMPLE_HEADING = /\b(examples?|samples?|outputs?|results?|expected|returns?|responses?|demo)\b/i;
const OUTPUT_WORDS = /\b(outputs?|expected|returns?|results? in|prints?|produces|responds?|response|gives|yields|displays?|shows?)\b\s*:?/i;
const OUTPUT_LANGS: ReadonlySet<string> = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'output', 'out', 'log', 'json', 'jsonc', 'yaml', 'xml', 'csv', 'console-output', 'result']);
const HTTP_LINE = /^\s*(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\/\S*/m;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/m;

/** How far before and after the block its surroundings are read. */
const LEAD_IN_CHARS = 400;
const AFTER_CHARS = 300;

/**
 * Why the block `block` of `unit` must not be replaced by an invoke, or null when it may be.
 * `text` is the parent's whole decoded text (offsets are into it).
 */
export function neverRewrite(text: string, unit: Unit, block: CodeBlock): NeverRewrite | null {
  const headings = unit.headingPath.join(' / ');
  const earlier = unit.codeBlocks.filter((b) => b.end <= block.start);
  const leadStart = Math.max(unit.start, earlier.length > 0 ? earlier[earlier.length - 1]!.end : unit.start);
  const leadIn = text.slice(Math.max(leadStart, block.start - LEAD_IN_CHARS), block.start);
  const later = unit.codeBlocks.find((b) => b.start >= block.end);
  const after = text.slice(block.end, Math.min(unit.end, later ? later.start : unit.end, block.end + AFTER_CHARS));
  const quote = (m: RegExpExecArray | null) => (m ? `'${m[0].trim()}'` : '');

  let m = WARNING.exec(headings) ?? WARNING.exec(leadIn);
  if (m) return { kind: 'warning', why: `a warning or negated passage (${quote(m)} in ${WARNING.test(headings) ? 'its heading' : 'the text before it'}): an invoke would read as an instruction to do it` };
  m = CONDITIONAL.exec(leadIn) ?? CONDITIONAL.exec(headings);
  if (m) return { kind: 'conditional', why: `one branch of a condition (${quote(m)}): an invoke would drop the condition` };
  m = CODE_CONTROL.exec(block.value);
  if (m) return { kind: 'conditional', why: `the code holds control flow (${quote(m)}): it is not one straight procedure` };
  m = REFERENCE_HEADING.exec(headings);
  if (m) return { kind: 'api-reference', why: `a reference section (${quote(m)} in its heading)` };
  if (TABLE_SEPARATOR.test(unit.text) || HTTP_LINE.test(unit.text)) return { kind: 'api-reference', why: 'its section is reference material (a parameter table or an HTTP endpoint line)' };
  m = EXAMPLE_HEADING.exec(headings);
  if (m) return { kind: 'example-output', why: `an example (${quote(m)} in its heading): its input stays next to what it shows` };
  m = OUTPUT_WORDS.exec(after) ?? OUTPUT_WORDS.exec(leadIn.slice(-120));
  if (m) return { kind: 'example-output', why: `an example with its output (${quote(m)} next to it)` };
  if (later && OUTPUT_LANGS.has((later.lang ?? '').toLowerCase()) && text.slice(block.end, later.start).trim().length < 80) {
    return { kind: 'example-output', why: 'an example with its output (the code block after it shows the result)' };
  }
  return null;
}
