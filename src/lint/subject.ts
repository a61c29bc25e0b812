/**
 * Builds what the rules see for one skill (LintSubject) from the loader's SourceSkill, with the
 * same parse as `skillc build` (so lint and build agree on fences, units and links), plus the
 * frontmatter's key positions.
 */
import path from 'node:path';
import type { SourceSkill } from '../ir/types.js';
import { parseSkillDetailed, type DetailedParse } from '../passes/parse.js';
import { viewFrontmatter } from './frontmatter-view.js';
import { yamlStartOf } from '../text/frontmatter.js';
import type { LintSubject } from './types.js';

/** Converts an absolute path to what the user sees: relative to `cwd`, with forward slashes. */
export function displayPath(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  return (rel === '' ? '.' : rel).split(path.sep).join('/');
}

/** A file of a skill as the user sees it: `SKILL.md` itself when linting from inside the skill. */
export function displayFile(displayDir: string, rel: string): string {
  return displayDir === '.' ? rel : `${displayDir}/${rel}`;
}

/**
 * @param skill the skill as loaded, with library-relative paths
 * @param dir absolute path of the skill folder
 */
export function makeSubject(skill: SourceSkill, dir: string, cwd: string): LintSubject {
  // The parse's own diagnostics are not used: the rules report those problems with their ids.
  const { parent, frontmatter: split, text, lines, invalid } = parseSkillDetailed(skill, [], { gfm: false });
  const { frontmatter, problems, document } = split;
  const yamlStart = yamlStartOf(frontmatter.raw);
  // YAML the parser could not read whole gives no fields to check: what it recovered (a value cut
  // at a stray `: `, read as a mapping) would only raise knock-on errors that frontmatter-yaml's
  // message already explains ("description must be a non-empty string" for a description that is one).
  const broken = problems.some((p) => p.kind === 'frontmatter-yaml-error');
  const fields = document && !broken ? viewFrontmatter(document, frontmatter.yaml, yamlStart) : null;
  const unclosedFences = parent.units
    .flatMap((u) => u.codeBlocks)
    .filter((b) => b.fenced && !b.closed)
    .map((b) => {
      const m = /^[ \t>]*(`{3,}|~{3,})/.exec(text.slice(b.start, b.start + 200));
      return { offset: b.start + (m ? m[0].length - m[1]!.length : 0), fence: m?.[1] ?? '```' };
    });
  const entries = new Set<string>();
  for (const f of skill.files) {
    const rel = f.relPath;
    entries.add(rel);
    for (let i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) entries.add(rel.slice(0, i));
  }
  const fileName = skill.file.slice(skill.file.lastIndexOf('/') + 1);
  entries.add(fileName);
  return {
    dir,
    displayDir: displayPath(dir, cwd),
    folderName: path.basename(dir),
    fileName,
    text,
    hasByteOrderMark: parent.encoding === 'utf-8-bom',
    lossy: parent.encoding === 'utf-8-invalid',
    encoding: encodingOf(skill.content, invalid, text),
    lines,
    frontmatter,
    frontmatterProblems: problems,
    fields,
    parent,
    unclosedFences,
    entries,
  };
}

/** The encoding problems of a skill file (LintSubject.encoding): the parse's first invalid byte, a UTF-16 byte order mark before it, the first NUL. */
function encodingOf(bytes: Uint8Array, invalid: DetailedParse['invalid'], text: string): LintSubject['encoding'] {
  const nul = text.indexOf('\0');
  const out: { utf16?: 'little-endian' | 'big-endian'; invalid?: DetailedParse['invalid']; nul?: number } = {};
  if (nul >= 0) out.nul = nul;
  if (!invalid) return out;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) out.utf16 = 'little-endian';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) out.utf16 = 'big-endian';
  out.invalid = invalid;
  return out;
}

