/**
 * A contract's id from what it does (issue 19 item 5): verb-object words read off its first
 * template — the command or verb, its subcommands and prepositions, and the names of its slots —
 * so `heat {object} with {appliance}` is `heat-object-with-appliance` and `pip install {package}`
 * is `pip-install-package`. Flags, file names and articles are left out. When two contracts would
 * get the same id, the later one takes more words (of its first template, then of its other
 * templates, then of its trigger) until the id is its own; ids are never numbered.
 */
import type { ActionTemplate } from '../ir/types.js';
import { templatePieces } from '../rewrite/templates.js';
import { idWords } from '../text/tokens.js';

const INTERPRETERS = /^(python3?|node|bash|sh|zsh|ruby|deno|bun|tsx|ts-node|pwsh|perl|php|uv|npx|bunx|pnpm|yarn|Rscript)$/;
const SCRIPT_PATH = /^(\.{0,2}\/)?[\w.-]+(\/[\w.-]+)*\.(py|js|mjs|cjs|ts|sh|bash|rb|pl|php|ps1|r|R)$/;
const SKIPPED = new Set(['a', 'an', 'the', 'your', 'my', 'our', 'their', 'its', 'this', 'that', 'these', 'those', 'and', 'or']);
const MAX_ID_WORDS = 5;
/** Words that link two others: an id cut after one (`add-composio-mcp-server-to`) ends mid-phrase. */
const LINKS = new Set(['to', 'with', 'in', 'into', 'on', 'onto', 'at', 'by', 'for', 'from', 'of', 'via', 'as']);

/** The words without the linking words they end in (all of them, if only those are left). */
function withoutTrailingLink(ws: readonly string[]): string[] {
  let end = ws.length;
  while (end > 1 && LINKS.has(ws[end - 1]!)) end--;
  return ws.slice(0, end);
}

/** The id words of one template, in order. */
export function templateWords(t: Pick<ActionTemplate, 'template' | 'slots'>): string[] {
  const out: string[] = [];
  let afterFlag = false;
  const pieces = templatePieces(t);
  // A script run by its interpreter (`python scripts/check.py …`) or by its path is named by the script.
  const head = pieces[0]?.kind === 'const' ? pieces[0].text.trim().split(/\s+/) : [];
  const script = INTERPRETERS.test(head[0] ?? '') && SCRIPT_PATH.test(head[1] ?? '') ? 1 : SCRIPT_PATH.test(head[0] ?? '') ? 0 : -1;
  if (script >= 0 && pieces[0]?.kind === 'const') {
    out.push(...idWords(head[script]!.split(/[\\/]/).pop()!.replace(/\.[A-Za-z0-9]+$/, ''), true));
    pieces[0] = { kind: 'const', text: pieces[0].text.trim().split(/\s+/).slice(script + 1).join(' ') + (/\s$/.test(pieces[0].text) ? ' ' : '') };
  }
  for (const p of pieces) {
    if (p.kind === 'slot') {
      out.push(...p.name.replace(/_\d+$/, '').split('_').filter(Boolean));
      afterFlag = false;
      continue;
    }
    for (const tok of p.text.split(/\s+/).filter(Boolean)) {
      if (/^-/.test(tok)) {
        // A flag and the plain word that is its value say how, not what.
        afterFlag = true;
        continue;
      }
      const wasFlag = afterFlag;
      afterFlag = false;
      if (wasFlag && /^[\w.:=-]+$/.test(tok)) continue;
      // Alternatives of short words (`in/on`, `and/or`): the first says it.
      const alt = /^([A-Za-z]{1,4})\/[A-Za-z]{1,4}$/.exec(tok);
      // Paths and file names (`scripts/run.py`, `input.mp4`) are arguments, not the action, except as the command itself.
      if (!alt && out.length > 0 && /[./\\]/.test(tok.replace(/[.,;:]$/, ''))) continue;
      for (const w of idWords(alt ? alt[1]! : tok, true)) if (!SKIPPED.has(w) && !/^\d+$/.test(w)) out.push(w);
    }
  }
  return out;
}

/**
 * Ids for contracts in order (the first keeps the shortest form). `triggers[i]` is the fallback
 * text of contract i. Deterministic: depends only on the order and the templates.
 */
export function contractIds(items: readonly { readonly templates: readonly Pick<ActionTemplate, 'template' | 'slots'>[]; readonly trigger: string }[]): string[] {
  const used = new Set<string>();
  return items.map((item) => {
    const first = item.templates[0] ? templateWords(item.templates[0]) : [];
    const rest = item.templates.slice(1).flatMap(templateWords);
    const trigger = idWords(item.trigger).filter((w) => !SKIPPED.has(w));
    const pool = [...first, ...rest, ...trigger];
    const base = first.length > 0 ? first : trigger;
    const candidates: string[] = [];
    for (let n = Math.min(MAX_ID_WORDS, Math.max(1, base.length)); n <= MAX_ID_WORDS + 3; n++) candidates.push(withoutTrailingLink(dedupeRuns(base.slice(0, n))).join('-'));
    for (let n = Math.min(base.length, MAX_ID_WORDS) + 1; n <= pool.length; n++) candidates.push(withoutTrailingLink(dedupeRuns([...base.slice(0, MAX_ID_WORDS), ...pool.slice(Math.min(base.length, MAX_ID_WORDS), n)])).join('-'));
    let id = candidates.find((c) => c !== '' && !used.has(c));
    // Every word taken and still not unique (two contracts with the same words throughout): the
    // words of the other's trigger would not help; spell the difference by letters, not numbers.
    for (let k = 0; id === undefined; k++) {
      const c = `${candidates[0] || 'contract'}-${letters(k)}`;
      if (!used.has(c)) id = c;
    }
    used.add(id);
    return id;
  });
}

/** `go go to` → `go to`: a word repeated right after itself (a slot named like the verb before it). */
function dedupeRuns(ws: readonly string[]): string[] {
  return ws.filter((w, i) => i === 0 || ws[i - 1] !== w);
}

function letters(k: number): string {
  let s = '';
  let n = k;
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return `variant-${s}`;
}
