/** Finding skills under a folder, for the benches that copy or measure libraries. */
import fs from 'node:fs';
import path from 'node:path';

/** Every regular file named SKILL.md under `dir`, in sorted walk order; symbolic links are not followed. */
export function skillFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name === 'SKILL.md') out.push(p);
    }
  };
  walk(dir);
  return out;
}
