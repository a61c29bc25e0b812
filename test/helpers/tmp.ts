/** Scratch folders for tests that need real files (symlinks, bad bytes); removed after each test file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
// Registered when a test file imports this module (each file has its own copy of it): an afterAll
// registered from inside a running test, where many scratch folders are made, never ran.
afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `skillc-${prefix}-`));
  made.push(dir);
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
