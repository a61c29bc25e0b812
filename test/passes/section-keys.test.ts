/**
 * Section-body keys from the parse processes (parse-worker.ts, issue 22): the passages pass takes
 * a parent's keys from its parse instead of splitting its sections again. The passages are the
 * ones the pass finds by itself, the keys go into the build cache like computed ones, and keys
 * that claim bodies are equal when they are not are caught and computed again. The parse
 * processes run the compiled worker, so the last test drives build/src in a child process.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadLibrary } from '../../src/load/load-library.js';
import { loadPolicy } from '../../src/policy/policy.js';
import { runPipeline } from '../../src/passes/driver.js';
import { PASSES } from '../../src/passes/registry.js';
import { parsePass } from '../../src/passes/parse.js';
import type { Pass } from '../../src/passes/pass.js';
import { CacheStore } from '../../src/cache/store.js';
import { MemoTable } from '../../src/cache/memo.js';
import { parentKey } from '../../src/cache/keys.js';
import { BODY_KEYS_MEMO, isBodyKeys } from '../../src/passes/pass-memo.js';
import { bodyKeysOf, type BodyKey } from '../../src/passages/detect.js';
import type { BuildIR, Parent } from '../../src/ir/types.js';
import { ROOT } from '../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const LIBRARY = path.resolve('test/fixtures/passages');

/** The passes up to passages, the parse giving each parent the keys `keysOf` makes (as a parse process would). */
async function passagesWith(keysOf: ((p: Parent, i: number) => BodyKey[] | null) | null, cache?: CacheStore): Promise<BuildIR> {
  const parse: Pass = keysOf
    ? {
        ...parsePass,
        async run(ir, ctx) {
          const out = await parsePass.run(ir, ctx);
          return { ...out, sectionKeys: out.parents!.map((p, i) => keysOf(p, i)) };
        },
      }
    : parsePass;
  const passes = [parse, PASSES.find((p) => p.name === 'passages')!];
  return (await runPipeline({ source: loadLibrary(LIBRARY), policy: loadPolicy() }, passes, {}, 1, undefined, cache)).ir;
}

const found = (ir: BuildIR) => JSON.stringify({ copies: ir.copies, passages: ir.passages });

describe('section keys from the parse', () => {
  it('give the passages the pass finds by itself, and are kept in the build cache', async () => {
    const own = await passagesWith(null);
    // In-process parses (a small library, or tests) give none: the pass computes every key.
    expect(own.sectionKeys!.every((k) => k === null)).toBe(true);
    expect(own.passages!.length).toBeGreaterThan(0);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillc-section-keys-'));
    dirs.push(dir);
    const cache = new CacheStore(dir);
    const parsed = await passagesWith((p) => bodyKeysOf(p), cache);
    expect(found(parsed)).toBe(found(own));
    const kept = MemoTable.load(cache, BODY_KEYS_MEMO, isBodyKeys);
    // Copies of a skill are mined once: their keys are never asked for.
    const copies = new Set(parsed.copies!.map((c) => c.copy));
    const mined = parsed.parents!.filter((p) => !copies.has(p.path));
    expect(mined.length).toBeGreaterThan(3);
    for (const p of mined) expect(kept.has(parentKey(p)), p.path).toBe(true);
  });

  it('are checked like kept keys: keys claiming that unequal bodies are equal are computed again', async () => {
    const own = await passagesWith(null);
    // Every section of every skill claims one and the same body.
    const forged = await passagesWith((p) => bodyKeysOf(p).map((k) => ({ ...k, exact: 'same', masked: 'same' })));
    expect(found(forged)).toBe(found(own));
  });

  it('are what the pass reads: a parse that gives a skill no section keys leaves it out of every passage', async () => {
    const own = await passagesWith(null);
    const member = own.passages![0]!.members[0]!.parent;
    const without = await passagesWith((p) => (p.path === member ? [] : bodyKeysOf(p)));
    const members = (ir: BuildIR) => new Set(ir.passages!.flatMap((x) => x.members.map((m) => m.parent)));
    expect(members(own).has(member)).toBe(true);
    expect(members(without).has(member)).toBe(false);
  });

  it('come from the parse processes, equal to the keys the pass would compute', () => {
    // 70 skills: parse processes start from 64 (parse.ts PARALLEL_MIN_SKILLS).
    const lib = fs.mkdtempSync(path.join(os.tmpdir(), 'skillc-section-keys-lib-'));
    dirs.push(lib);
    for (let i = 0; i < 70; i++) {
      fs.mkdirSync(path.join(lib, `s${i}`));
      fs.writeFileSync(path.join(lib, `s${i}`, 'SKILL.md'), `---\nname: s${i}\ndescription: Skill ${i}.\n---\n# S${i}\n\nIntro ${i}.\n\n## Setup\n\nRun \`make setup\` in s${i}, then check the ${i % 7} logs for errors before you go on to the next step.\n\n## Notes\n\nKeep every change small, write down what you ran, and ask before deleting files.\n`);
    }
    const at = (m: string) => JSON.stringify(path.join(ROOT, 'build', 'src', m));
    const script = `
      import { loadLibrary } from ${at('load/load-library.js')};
      import { parsePass } from ${at('passes/parse.js')};
      import { bodyKeysOf } from ${at('passages/detect.js')};
      const ir = { source: loadLibrary(${JSON.stringify(lib)}) };
      const out = await parsePass.run(ir, { jobs: 2, progress: () => {}, report: () => {} });
      const fromParse = out.sectionKeys.filter((k) => k !== null).length;
      const same = out.parents.every((p, i) => JSON.stringify(out.sectionKeys[i]) === JSON.stringify(bodyKeysOf(p)));
      const keys = out.sectionKeys.reduce((a, k) => a + (k ? k.length : 0), 0);
      console.log(JSON.stringify({ parents: out.parents.length, fromParse, same, keys }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: ROOT });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { parents: number; fromParse: number; same: boolean; keys: number };
    expect(out.parents).toBe(70);
    expect(out.fromParse).toBe(70);
    expect(out.same).toBe(true);
    expect(out.keys).toBeGreaterThanOrEqual(140);
  });
});
