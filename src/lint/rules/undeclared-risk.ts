/**
 * undeclared-risk: risky calls in fenced code, in inline code that runs something in a shell, and
 * in scripts are declared in metadata.side-effects.
 */
import type { LintRule } from '../types.js';
import type { CodeLanguage, RiskFinding } from '../../risk/scan.js';
import { isShellSessionFence, languageOf } from '../../risk/languages.js';
import { declaredSideEffects } from '../../risk/declarations.js';

/**
 * Inline code that runs what it fetches or decodes in a shell (`curl … | bash`, `bash <(curl …)`,
 * `sh -c "$(wget …)"`, `iex (iwr …)`): "Install: `curl -fsSL https://… | bash`" in prose is the
 * same instruction as the fenced block. Other inline code is a name or an example and is not parsed.
 */
const INLINE_RUN = /\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:ba|z)?sh\s+(?:-c\s+)?["']?(?:<\(|\$\()|\biex\b/;

export const undeclaredRisk: LintRule<{ minWeight: number }> = {
  meta: {
    id: 'undeclared-risk',
    category: 'safety',
    summary: 'risky calls in code and scripts are declared in metadata.side-effects',
    doc: 'An agent runs a skill\'s commands and scripts with the user\'s rights, so what they can do (delete files, reach the network, run downloaded code, read secrets) should be visible before the skill is used. This rule parses fenced bash, Python, JavaScript and TypeScript, inline code that runs something in a shell (`curl … | bash` in a sentence), and the skill\'s scripts into syntax trees (a comment or string that only mentions `rm -rf` does not count) and reports each unsafe sink of rules/risk-sinks.json that the skill does not declare. Declare them under `metadata` in the frontmatter, as `side-effects: network, bash.rm-recursive`: a category (filesystem, network, subprocess) covers the lighter sinks of that category, while a sink at or above the verifier\'s risk gate (e.g. `curl … | sh`, `shell=True`) must be named by its id. `minWeight` hides sinks lighter than it.',
    defaultLevel: 'warn',
    fixable: false,
    optionsSchema: { type: 'object', additionalProperties: false, properties: { minWeight: { type: 'number', minimum: 0, maximum: 1 } } },
    defaultOptions: { minWeight: 0.5 },
    tags: ['security'],
    securitySeverity: '6.0',
  },
  async check(ctx, options) {
    const { subject } = ctx;
    const blocks = subject.parent.units.flatMap((u) => u.codeBlocks).flatMap((b) => {
      const language = languageOf(b.lang);
      return language ? [{ block: b, language }] : [];
    });
    const scripts = subject.parent.scripts.flatMap((s) => {
      const language = s.text !== undefined ? languageOf(null, s.relPath) : null;
      return language && s.text !== undefined ? [{ script: s, text: s.text, language }] : [];
    });
    const inline = subject.parent.units.flatMap((u) => u.inlineCode).filter((c) => INLINE_RUN.test(c.value));
    if (blocks.length === 0 && scripts.length === 0 && inline.length === 0) return;
    const isJs = (l: CodeLanguage) => l === 'javascript' || l === 'typescript';
    const scanner = await ctx.services.riskScanner(blocks.some((b) => isJs(b.language)) || scripts.some((s) => isJs(s.language)));
    const declared = declaredSideEffects(subject.frontmatter);
    const riskMax = ctx.services.riskMax();
    const undeclared = (f: RiskFinding) =>
      f.weight >= options.minWeight && !declared.has(f.sink) && !(f.weight < riskMax && declared.has(f.category));
    const advice = (f: RiskFinding) =>
      f.weight >= riskMax ? `declare it by id in metadata.side-effects ('${f.sink}')` : `declare '${f.category}' or '${f.sink}' in metadata.side-effects`;
    const describe = (f: RiskFinding) => `${f.sink} (${f.category}, weight ${f.weight}) in \`${f.snippet}\`: ${advice(f)}`;

    for (const { block, language } of blocks) {
      const result = scanner.scan(block.value, language, { shellSession: isShellSessionFence(block.lang) || undefined });
      const fenceLine = block.line;
      const indent = subject.lines.position(block.start).column - 1;
      for (const f of result.findings.filter(undeclared)) {
        const lineStart = subject.lines.offsetOfLine(fenceLine + f.line);
        ctx.report({ offset: lineStart + indent + f.column - 1, message: `undeclared risky call ${describe(f)}` });
      }
    }
    for (const c of inline) {
      // The span's text after its opening backticks (a span's value may differ from the source
      // by a trimmed space or a line ending: then the span's start).
      const at = subject.text.indexOf(c.value, c.start);
      const contentStart = at >= 0 && at - c.start < 16 ? at : c.start;
      for (const f of scanner.scan(c.value, 'bash').findings.filter(undeclared)) {
        ctx.report({ offset: f.line === 1 ? contentStart + f.column - 1 : contentStart, message: `undeclared risky call ${describe(f)}` });
      }
    }
    for (const { script, text, language } of scripts) {
      const result = scanner.scan(text, language);
      for (const f of result.findings.filter(undeclared)) {
        ctx.report({ file: script.relPath, line: f.line, column: f.column, message: `undeclared risky call ${describe(f)}` });
      }
    }
  },
};
