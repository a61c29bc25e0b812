/**
 * The only code that writes build output. Artifacts go to a fresh sibling folder first and replace
 * the output folder only when all of them are written, so a failed build never leaves half a dist.
 * An existing output folder is replaced only if skillc made it (it holds our manifest.json) or the
 * user said --force: `-o .` must never wipe a project.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Artifact } from './artifacts.js';
import { sha256 } from '../util/hash.js';

export class OutputDirError extends Error {}

const MARKER = 'manifest.json';

export function checkOutputDir(outDir: string, force: boolean): void {
  const abs = path.resolve(outDir);
  if (!fs.existsSync(abs)) return;
  const st = fs.statSync(abs);
  if (!st.isDirectory()) throw new OutputDirError(`output ${outDir} exists and is not a directory`);
  const entries = fs.readdirSync(abs);
  if (entries.length === 0 || force) return;
  if (!entries.includes(MARKER)) throw new OutputDirError(`output folder ${outDir} is not empty and was not written by skillc (no ${MARKER}); choose another folder or pass --force to replace it`);
}

export function writeDist(outDir: string, artifacts: readonly Artifact[]): void {
  const abs = path.resolve(outDir);
  const parent = path.dirname(abs);
  fs.mkdirSync(parent, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(parent, `.${path.basename(abs)}.skillc-`));
  try {
    const made = new Set<string>();
    for (const a of artifacts) {
      const target = path.join(tmp, ...a.path.split('/'));
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      if ('content' in a) fs.writeFileSync(target, a.content);
      else if ('symlink' in a) fs.symlinkSync(a.symlink, target);
      else {
        // Read once, checked against the hash taken when the library was read (a file that
        // changed during the build must not slip into dist/ under the old manifest), then written.
        const bytes = fs.readFileSync(a.copyFrom);
        if (sha256(bytes) !== a.sha256) throw new Error(`${a.copyFrom} changed while the build was running; rebuild`);
        fs.writeFileSync(target, bytes);
      }
    }
    fs.rmSync(abs, { recursive: true, force: true });
    fs.renameSync(tmp, abs);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
