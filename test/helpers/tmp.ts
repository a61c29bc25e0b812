/** Scratch folders for tests that need real files (symlinks, bad bytes); removed after each test file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

export function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `skillc-${prefix}-`));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes files given as {relativePath: content} under dir. */
export function writeTree(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}
