/**
 * Parity of the risk scanner's JS/TS parsers: every JavaScript and TypeScript code block and
 * script of the corpora is scanned twice through the same walker (src/risk/js.ts), once parsed by
 * oxc-parser (what skillc ships) and once by @typescript-eslint/typescript-estree (what SPEC §4
 * names, kept as a dev dependency for this comparison). Prints how many units agree exactly
 * (findings with sink, line, column and snippet, and whether the parse failed), lists every
 * difference, and times both parsers' load and scan.
 *
 *   node build/bench/js-parser-parity.js [corpora] [--show 20]
 */
import path from 'node:path';
import { AST_NODE_TYPES, TSError, parse, simpleTraverse } from '@typescript-eslint/typescript-estree';
import { loadLibrary } from '../src/load/load-library.js';
import { parseSkill } from '../src/passes/parse.js';
import { isShellSessionFence, languageOf } from '../src/risk/languages.js';
import { createRiskScanner, loadRiskCatalogue, type CodeLanguage, type ScanResult } from '../src/risk/scan.js';
import type { JsProgramParser } from '../src/risk/js.js';
import { coldLoadMs, timed } from './timing.js';

const args = process.argv.slice(2);
const showIndex = args.indexOf('--show');
const show = showIndex >= 0 ? Number(args[showIndex + 1]) : 20;
const root = path.resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--show') ?? '../shared/corpora');

/** typescript-estree as the walker's parser: the call skillc made before oxc-parser. */
const parseWithTypescriptEstree: JsProgramParser = (text, typescript) => {
  let firstError: string | undefined;
  for (const jsx of [false, true]) {
    try {
      const program = parse(text, {
        range: true,
        loc: false,
        jsx,
        filePath: `snippet.${typescript ? 'ts' : 'js'}${jsx ? 'x' : ''}`,
        comment: false,
        tokens: false,
        loggerFn: false,
        suppressDeprecatedPropertyWarnings: true,
      });
      // The walker reads start/end (oxc's spans); estree gives range.
      simpleTraverse(program, {
        enter(node) {
          const n = node as unknown as { start: number; end: number };
          n.start = node.range[0];
          n.end = node.range[1];
        },
      });
      if (program.type !== AST_NODE_TYPES.Program) throw new Error('not a program');
      return program as unknown as ReturnType<JsProgramParser>;
    } catch (error) {
      firstError ??= error instanceof TSError ? `${error.message} (line ${error.location.start.line}, column ${error.location.start.column + 1})` : String(error);
    }
  }
  return firstError ?? 'unparsable code';
};

interface Unit {
  readonly where: string;
  readonly text: string;
  readonly language: CodeLanguage;
  readonly shellSession: boolean;
}

const library = loadLibrary(root);
const units: Unit[] = [];
for (const skill of library.skills) {
  const parent = parseSkill(skill, []);
  for (const block of parent.units.flatMap((u) => u.codeBlocks)) {
    const language = languageOf(block.lang);
    if (language === 'javascript' || language === 'typescript') {
      units.push({ where: `${skill.file}:${block.line}`, text: block.value, language, shellSession: isShellSessionFence(block.lang) });
    }
  }
  for (const script of parent.scripts) {
    const language = script.text !== undefined ? languageOf(null, script.relPath) : null;
    if ((language === 'javascript' || language === 'typescript') && script.text !== undefined) {
      units.push({ where: `${skill.path}/${script.relPath}`, text: script.text, language, shellSession: false });
    }
  }
}

const catalogue = loadRiskCatalogue();
const oxcLoadMs = coldLoadMs("(await import('oxc-parser')).parseSync('a.ts', 'let a: number = 1')");
const estreeLoadMs = coldLoadMs("(await import('@typescript-eslint/typescript-estree')).parse('let a: number = 1', { filePath: 'a.ts' })");
const oxcScanner = await createRiskScanner(catalogue);
const estreeScanner = await createRiskScanner(catalogue, { parseJs: parseWithTypescriptEstree });

const canonical = (r: ScanResult) =>
  JSON.stringify({ findings: r.findings.map((f) => [f.sink, f.line, f.column, f.snippet]), failed: r.parseError !== undefined });
const scanAll = (scanner: typeof oxcScanner) => units.map((u) => scanner.scan(u.text, u.language, { shellSession: u.shellSession || undefined }));
const oxc = await timed(() => scanAll(oxcScanner));
const estree = await timed(() => scanAll(estreeScanner));

const differences = units.flatMap((u, i) => {
  const a = oxc.value[i]!;
  const b = estree.value[i]!;
  return canonical(a) === canonical(b) ? [] : [{ unit: u, oxc: a, estree: b }];
});
const count = (results: readonly ScanResult[], f: (r: ScanResult) => boolean) => results.filter(f).length;
const findings = (results: readonly ScanResult[]) => results.reduce((n, r) => n + r.findings.length, 0);
const skills = new Set(units.map((u) => u.where.split(':')[0]));

console.log(`JS/TS units: ${units.length} (${units.filter((u) => u.language === 'typescript').length} TypeScript) in ${skills.size} SKILL.md files and scripts of ${root}`);
console.log(`identical scan results: ${units.length - differences.length}/${units.length} (${((100 * (units.length - differences.length)) / Math.max(1, units.length)).toFixed(2)}%)`);
console.log(`findings: oxc ${findings(oxc.value)}, typescript-estree ${findings(estree.value)}`);
console.log(`parse failures: oxc ${count(oxc.value, (r) => r.parseError !== undefined)}, typescript-estree ${count(estree.value, (r) => r.parseError !== undefined)}`);
console.log(`cold load and first parse (fresh process, median of 5): oxc-parser ${oxcLoadMs.toFixed(0)} ms, typescript-estree ${estreeLoadMs.toFixed(0)} ms`);
console.log(`scan all units: oxc ${oxc.ms.toFixed(0)} ms, typescript-estree ${estree.ms.toFixed(0)} ms`);
for (const d of differences.slice(0, show)) {
  const describe = (r: ScanResult) =>
    r.parseError !== undefined ? `parse error: ${r.parseError.slice(0, 120)}` : r.findings.map((f) => `${f.sink}@${f.line}:${f.column}`).join(', ') || 'no findings';
  console.log(`- ${d.unit.where} (${d.unit.language})\n    oxc:    ${describe(d.oxc)}\n    estree: ${describe(d.estree)}`);
}
if (differences.length > show) console.log(`… and ${differences.length - show} more (--show n)`);
