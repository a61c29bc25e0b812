/**
 * Nothing-lost check of a build's dist/ against the library it came from, using nothing of skillc
 * but the artifacts. For every parent in dist/parents.json:
 *
 *   1. its frontmatter.raw and every unit's text occur verbatim in one of the parent's own files in
 *      dist/: skills/<path>/SKILL.md, skills/<path>/SKILL.replaced.md, bundles/<path>.md (for the
 *      root skill ".", bundles/_root.md), then any other file under skills/<path>/ (files inside a
 *      nested skill's folder belong to that skill and are not searched). Files are decoded as WHATWG UTF-8, as parents.json's texts were.
 *      Each text must lie within one file (stricter than searching a concatenation, which could
 *      match across a file boundary). Empty texts pass.
 *   2. every file in scripts/references/assets is at skills/<path>/<relPath> with the recorded
 *      size and sha256, and so is the library's own copy (a symbolic link must be a symbolic link
 *      to the recorded target in both places).
 *   3. a parent without skills/<path>/SKILL.replaced.md (SKILL.replaced-<k>.md when the skill has
 *      its own file of that name) was not rewritten: its dist SKILL.md must be
 *      byte-identical to the library's SKILL.md. The library's SKILL.md must also still have the
 *      size and sha256 recorded in parents.json (else the dist is not a build of this library).
 *
 * Prints the first 20 problems of each kind and a summary; exit 1 when anything is missing or
 * differs, 2 on a usage error or a failed build.
 *
 *   node build/bench/nothing-lost.js [library=../shared/corpora] [dist]
 *
 * Without dist, runs `node bin/skillc.js build <library> -o <tmpdir> --force` from the repo root,
 * checks <tmpdir> and removes it afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

interface UnitJson { id: string; index: number; line: number; text: string }
interface FileJson { path: string; relPath: string; bytes: number; sha256: string; symlinkTarget?: string }
interface ParentJson {
  path: string;
  file: string;
  bytes?: number;
  sha256?: string;
  frontmatter: { raw: string };
  units: UnitJson[];
  scripts?: FileJson[];
  references?: FileJson[];
  assets?: FileJson[];
}
interface ParentsDoc { parents: ParentJson[]; skipped?: { path: string }[] }

/** One text that must reach the output. */
export interface Needle { readonly label: string; readonly text: string }

export interface NothingLostResult {
  parents: number;
  rewritten: number;
  copied: number;
  bundles: number;
  skipped: number;
  units: number;
  /** Texts not found: frontmatters and units. */
  misses: string[];
  files: number;
  /** Listed files missing or different in dist/ or in the library. */
  fileMismatches: string[];
  /** SKILL.md problems: copied parents that differ, missing SKILL.md, stale library. */
  skillMismatches: string[];
}

const MAX_SHOWN = 20;
const decoder = new TextDecoder('utf-8');

/** Code-unit order, independent of locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** POSIX join where "." is the root: joinRel(".", "a") === "a". */
export function joinRel(dir: string, name: string): string {
  return dir === '.' || dir === '' ? name : `${dir}/${name}`;
}

/**
 * The parent's own files under its dist folder, as paths relative to it, sorted: every file and
 * symbolic link below skillDir except those inside a subfolder whose library path is another
 * skill's (nested skills keep their own files). Symbolic links are listed, never followed.
 */
export function ownFiles(skillDir: string, parentPath: string, otherSkills: ReadonlySet<string>): { rel: string; symlink: boolean }[] {
  const out: { rel: string; symlink: boolean }[] = [];
  const walk = (abs: string, rel: string): void => {
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    dirents.sort((a, b) => compareCodeUnits(a.name, b.name));
    for (const d of dirents) {
      const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isSymbolicLink()) out.push({ rel: childRel, symlink: true });
      else if (d.isDirectory()) {
        if (!otherSkills.has(joinRel(parentPath, childRel))) walk(path.join(abs, d.name), childRel);
      } else if (d.isFile()) out.push({ rel: childRel, symlink: false });
    }
  };
  walk(skillDir, '');
  return out;
}

/**
 * The needles found in none of the haystacks. Haystacks are produced one at a time (so only one
 * file's text is held at once) and only while some needle is still unfound; empty needles pass.
 */
export function unfound<N extends Needle>(needles: readonly N[], haystacks: Iterable<string>): N[] {
  let pending = needles.filter((n) => n.text !== '');
  if (pending.length === 0) return [];
  for (const hay of haystacks) {
    pending = pending.filter((n) => !hay.includes(n.text));
    if (pending.length === 0) break;
  }
  return pending;
}

/**
 * Where a rewritten parent's replaced text goes: SKILL.replaced.md, or SKILL.replaced-<k>.md
 * (k = 2, 3, …) when the skill already has a file of that name (compared case-insensitively).
 */
export function replacedFileName(listedRelPaths: readonly string[]): string {
  const taken = new Set(listedRelPaths.map((r) => r.toLowerCase()));
  let name = 'SKILL.replaced.md';
  for (let k = 2; taken.has(name.toLowerCase()); k++) name = `SKILL.replaced-${k}.md`;
  return name;
}

/** The bundle of a parent, relative to dist/: bundles/<path>.md, bundles/_root.md for ".". */
export function bundlePath(parentPath: string): string {
  return parentPath === '.' ? 'bundles/_root.md' : `bundles/${parentPath}.md`;
}

/** "<label>: not found: "<first 60 chars>"" with newlines and quotes escaped. */
export function missLine(label: string, text: string): string {
  const head = Array.from(text.slice(0, 120)).slice(0, 60).join('');
  return `${label}: not found: ${JSON.stringify(head)}${head.length < text.length ? '…' : ''}`;
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

/** Why the file at abs is not the recorded one, or null when it is. */
function fileProblem(abs: string, f: FileJson): string | null {
  const st = lstatOrNull(abs);
  if (st === null) return 'missing';
  if (f.symlinkTarget !== undefined) {
    if (!st.isSymbolicLink()) return `expected a symbolic link to ${f.symlinkTarget}, found a ${st.isFile() ? 'file' : 'non-file'}`;
    const target = fs.readlinkSync(abs);
    return target === f.symlinkTarget ? null : `symbolic link to ${target}, expected ${f.symlinkTarget}`;
  }
  if (st.isSymbolicLink()) return `a symbolic link to ${fs.readlinkSync(abs)}, expected a file`;
  if (!st.isFile()) return 'not a regular file';
  if (st.size !== f.bytes) return `${st.size} bytes, expected ${f.bytes}`;
  const hash = sha256(fs.readFileSync(abs));
  return hash === f.sha256 ? null : `sha256 ${hash.slice(0, 12)}…, expected ${f.sha256.slice(0, 12)}…`;
}

function* readTexts(paths: readonly string[]): Generator<string> {
  for (const p of paths) {
    try {
      yield decoder.decode(fs.readFileSync(p));
    } catch {
      // unreadable: holds nothing
    }
  }
}

export function checkDist(dist: string, library: string): NothingLostResult {
  const doc = JSON.parse(fs.readFileSync(path.join(dist, 'parents.json'), 'utf8')) as ParentsDoc;
  const parents = [...doc.parents].sort((a, b) => compareCodeUnits(a.path, b.path));
  const skipped = doc.skipped ?? [];
  const allSkills = new Set([...parents.map((p) => p.path), ...skipped.map((s) => s.path)]);
  const res: NothingLostResult = { parents: 0, rewritten: 0, copied: 0, bundles: 0, skipped: skipped.length, units: 0, misses: [], files: 0, fileMismatches: [], skillMismatches: [] };

  for (const p of parents) {
    res.parents++;
    const skillDir = path.join(dist, 'skills', p.path);
    const distRel = (rel: string): string => `skills/${joinRel(p.path, rel)}`;
    const others = new Set(allSkills);
    others.delete(p.path);
    const own = ownFiles(skillDir, p.path, others);
    const ownSet = new Set(own.filter((f) => !f.symlink).map((f) => f.rel));
    const listed = [...(p.scripts ?? []), ...(p.references ?? []), ...(p.assets ?? [])].sort((a, b) => compareCodeUnits(a.relPath, b.relPath));
    const replacedFile = replacedFileName(listed.map((f) => f.relPath));
    const replaced = ownSet.has(replacedFile);
    const bundle = path.join(dist, bundlePath(p.path));
    const hasBundle = lstatOrNull(bundle)?.isFile() === true;
    if (replaced) res.rewritten++;
    else res.copied++;
    if (hasBundle) res.bundles++;

    // 3. SKILL.md: present; byte-identical to the library's when not rewritten; library not stale.
    const distSkill = path.join(skillDir, 'SKILL.md');
    const libSkill = path.join(library, p.file);
    const libBytes = lstatOrNull(libSkill)?.isFile() ? fs.readFileSync(libSkill) : null;
    if (libBytes === null) res.skillMismatches.push(`${p.file}: missing in the library`);
    else if (p.sha256 !== undefined && (libBytes.length !== p.bytes || sha256(libBytes) !== p.sha256)) res.skillMismatches.push(`${p.file}: library file differs from the one in parents.json (${libBytes.length} bytes, recorded ${p.bytes})`);
    if (!ownSet.has('SKILL.md')) res.skillMismatches.push(`${distRel('SKILL.md')}: missing`);
    else if (!replaced && libBytes !== null && !fs.readFileSync(distSkill).equals(libBytes)) res.skillMismatches.push(`${distRel('SKILL.md')}: no ${replacedFile}, but differs from the library's ${p.file}`);

    // 1. Every text reaches one of the parent's own files: the likely homes first, the rest lazily.
    const needles: Needle[] = [{ label: `${p.file}:1 frontmatter`, text: p.frontmatter.raw }];
    for (const u of [...p.units].sort((a, b) => a.index - b.index)) needles.push({ label: `${p.file}:${u.line} unit ${u.id}`, text: u.text });
    res.units += p.units.length;
    const first = ['SKILL.md', replacedFile].filter((f) => ownSet.has(f)).map((f) => path.join(skillDir, f));
    if (hasBundle) first.push(bundle);
    const rest = own.filter((f) => !f.symlink && f.rel !== 'SKILL.md' && f.rel !== replacedFile).map((f) => path.join(skillDir, f.rel));
    for (const n of unfound(needles, readTexts([...first, ...rest]))) res.misses.push(missLine(n.label, n.text));

    // 2. Every listed file, byte for byte, in dist/ and in the library.
    for (const f of listed) {
      res.files++;
      if (f.path !== joinRel(p.path, f.relPath)) res.fileMismatches.push(`${f.path}: relPath ${f.relPath} is not under ${p.path}`);
      const inDist = fileProblem(path.join(skillDir, f.relPath), f);
      if (inDist !== null) res.fileMismatches.push(`${distRel(f.relPath)}: ${inDist}`);
      const inLib = fileProblem(path.join(library, f.path), f);
      if (inLib !== null) res.fileMismatches.push(`${f.path} (library): ${inLib}`);
    }
  }
  return res;
}

const n = (x: number): string => x.toLocaleString('en-US');

export function summaryLine(r: NothingLostResult): string {
  return (
    `nothing-lost: ${n(r.parents)} parents (${n(r.rewritten)} rewritten, ${n(r.copied)} copied, ${n(r.bundles)} bundles), ` +
    `${n(r.units)} units, ${n(r.misses.length)} misses; ${n(r.files)} files, ${n(r.fileMismatches.length)} mismatches; ` +
    `${n(r.skillMismatches.length)} SKILL.md problems; ${n(r.skipped)} skipped by the build`
  );
}

function printSome(title: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  process.stdout.write(`${title} (${n(lines.length)}${lines.length > MAX_SHOWN ? `, first ${MAX_SHOWN}` : ''}):\n`);
  for (const l of lines.slice(0, MAX_SHOWN)) process.stdout.write(`  ${l}\n`);
}

/** The repo root: the nearest folder above this script holding bin/skillc.js. */
function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'bin', 'skillc.js'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find bin/skillc.js above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

export function main(args: readonly string[]): number {
  if (args.length > 2 || args.some((a) => a === '-h' || a === '--help')) {
    process.stderr.write('usage: node build/bench/nothing-lost.js [library=../shared/corpora] [dist]\n');
    return 2;
  }
  const library = path.resolve(args[0] ?? '../shared/corpora');
  let dist = args[1];
  let tmp: string | null = null;
  try {
    if (dist === undefined) {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillc-nothing-lost-'));
      dist = tmp;
      const root = repoRoot();
      process.stderr.write(`nothing-lost: building ${library} into ${tmp}\n`);
      const run = spawnSync(process.execPath, [path.join(root, 'bin', 'skillc.js'), 'build', library, '-o', tmp, '--force'], { cwd: root, stdio: ['ignore', 2, 2] });
      if (run.status !== 0) {
        process.stderr.write(`nothing-lost: skillc build failed (${run.error ? run.error.message : run.signal ?? `exit ${run.status}`})\n`);
        return 2;
      }
    }
    if (!fs.existsSync(path.join(dist, 'parents.json'))) {
      process.stderr.write(`nothing-lost: ${path.join(dist, 'parents.json')} not found\n`);
      return 2;
    }
    const r = checkDist(dist, library);
    printSome('texts not found', r.misses);
    printSome('file mismatches', r.fileMismatches);
    printSome('SKILL.md problems', r.skillMismatches);
    process.stdout.write(summaryLine(r) + '\n');
    return r.misses.length + r.fileMismatches.length + r.skillMismatches.length === 0 ? 0 : 1;
  } finally {
    if (tmp !== null) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
