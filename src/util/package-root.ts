/** Locates skillc's own package folder (for rules/ and schemas/), from source or compiled code alike. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && fs.existsSync(path.join(dir, 'schemas'))) return (cached = dir);
    const up = path.dirname(dir);
    if (up === dir) throw new Error('skillc: cannot find its package folder (package.json beside schemas/)');
    dir = up;
  }
}
