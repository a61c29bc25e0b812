/**
 * The library-aware lint rules (redescribes-contract, contradicts-template) against a dist built
 * with the real CLI from test/fixtures/lint-library/library: three Depot skills share a "Store the
 * crate" section, which the build promotes to the contract move-crate-to-shelf (template `move crate
 * {crate} to shelf {shelf}`). The skills under test/fixtures/lint-library/subjects are not in
 * that library: one re-describes the procedure, one does something else, one re-describes it and
 * contradicts the template in its example. Also: loading a bad --dist fails with a DistError that
 * names the file and the problem.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, skillc } from '../helpers/cli.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';
import { loadLibrary } from '../../src/load/load-library.js';
import { lintSkill } from '../../src/lint/engine.js';
import { resolveConfig } from '../../src/lint/config.js';
import { createServices } from '../../src/lint/services.js';
import { boundUnits, DistError, loadLintDist } from '../../src/lint/dist.js';
import type { LintMessage } from '../../src/lint/types.js';
import { formatInvoke } from '../../src/rewrite/invoke.js';
import { parentOf } from '../helpers/skill.js';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'lint-library');
const LIBRARY = path.join(FIXTURE, 'library');
const SUBJECTS = path.join(FIXTURE, 'subjects');
const LIBRARY_RULES = new Set(['redescribes-contract', 'contradicts-template']);

let scratch: string;
let dist: string;

beforeAll(() => {
  scratch = scratchDir('lint-library');
  dist = path.join(scratch, 'dist');
  const r = skillc(['build', LIBRARY, '-o', dist, '-q']);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

/** The library rules' messages on the skill in `dir`, linted through the engine. */
async function lintLibraryRules(dir: string, distDir: string | null = dist): Promise<LintMessage[]> {
  const skill = loadLibrary(dir).skills.find((s) => s.path === '.');
  if (!skill) throw new Error(`no skill at ${dir}`);
  const result = await lintSkill(skill, dir, { config: resolveConfig({}), services: createServices(distDir ? { distDir } : {}), cwd: ROOT });
  expect(result.crashed).toBe(false);
  return result.files.flatMap((f) => f.messages).filter((m) => LIBRARY_RULES.has(m.ruleId));
}

describe('the fixture dist', () => {
  it('auto-promotes move-crate-to-shelf with the verb class of its cluster', () => {
    const loaded = loadLintDist(dist);
    expect(loaded.contracts.map((c) => [c.contract.id, c.verb])).toEqual([['move-crate-to-shelf', 'put']]);
    expect(loaded.contracts[0]!.contract.templates.map((t) => t.template)).toEqual(['move crate {crate} to shelf {shelf}']);
  });
});

describe('redescribes-contract', () => {
  it('reports a new skill that re-describes the contract, with the invoke the build would write', async () => {
    const messages = await lintLibraryRules(path.join(SUBJECTS, 'depot-putaway'));
    const invoke = formatInvoke('move-crate-to-shelf', { crate: 'K9', shelf: 'S2' }, ['crate', 'shelf']);
    expect(invoke).toBe('invoke(move-crate-to-shelf, {crate="K9", shelf="S2"})');
    expect(messages).toEqual([
      {
        ruleId: 'redescribes-contract',
        severity: 'warning',
        message: "section 'Store the crate' re-describes contract move-crate-to-shelf (Store the crate): 1 line instantiates its templates; call the contract instead",
        line: 10,
        column: 1,
        endLine: 10,
        endColumn: 19,
        suggestion: invoke,
      },
    ]);
  });

  it('says nothing about a skill that does something else', async () => {
    expect(await lintLibraryRules(path.join(SUBJECTS, 'depot-stocktake'))).toEqual([]);
  });

  it('reports a source parent of the contract as such, and that the build left it as written', async () => {
    const messages = await lintLibraryRules(path.join(LIBRARY, 'depot-restock'));
    expect(messages.map((m) => [m.ruleId, m.line])).toEqual([['redescribes-contract', 29]]);
    expect(messages[0]!.message).toContain("this skill is its source parent 'depot-restock'; skillc build leaves the section as written");
    const built = JSON.parse(fs.readFileSync(path.join(dist, 'refactored_library.json'), 'utf8')) as { call_sites: unknown[]; dropped_call_sites: { parent: string; stage: string }[] };
    expect(built.call_sites).toEqual([]);
    expect(['pay', 'never-rewrite']).toContain(built.dropped_call_sites.find((d) => d.parent === 'depot-restock')?.stage);
    expect(messages[0]!.suggestion).toMatch(/^invoke\(move-crate-to-shelf, \{/);
  });

  it('recognises a moved copy of a source parent by its SKILL.md bytes', async () => {
    const moved = path.join(scratch, 'moved', 'returns-copy');
    writeTree(moved, { 'SKILL.md': fs.readFileSync(path.join(LIBRARY, 'depot-return', 'SKILL.md')) });
    const messages = await lintLibraryRules(moved);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.message).toContain("source parent 'depot-return'");
  });

  it('leaves alone a tip that only quotes the contract\'s command (its section is not a put procedure)', async () => {
    const dir = path.join(scratch, 'tips', 'depot-tips');
    writeTree(dir, {
      'SKILL.md': '---\nname: depot-tips\ndescription: Tips for Depot robots. Use when a command fails.\n---\n\n# Depot tips\n\n## Tips\n\n- Labels matter: `move crate K9 to shelf S2` fails if crate K9 is on another robot.\n',
    });
    expect(await lintLibraryRules(dir)).toEqual([]);
  });

  it('is skipped without --dist', async () => {
    expect(await lintLibraryRules(path.join(SUBJECTS, 'depot-transfer'), null)).toEqual([]);
  });

  it('binds each section to one contract: the most matched lines, then the smallest id', () => {
    const loaded = loadLintDist(dist);
    const entry = loaded.contracts[0]!;
    const twin = { ...entry, contract: { ...entry.contract, id: 'a-store-crate-twin' } };
    const both = { ...loaded, contracts: [entry, twin] };
    const parent = parentOf('depot-putaway', fs.readFileSync(path.join(SUBJECTS, 'depot-putaway', 'SKILL.md'), 'utf8'));
    const bound = boundUnits(both, parent);
    expect(bound.map((b) => [b.unit.heading, b.entry.contract.id])).toEqual([['Store the crate', 'a-store-crate-twin']]);
  });
});

describe('contradicts-template', () => {
  it('reports the example line that does the contract\'s step with another verb', async () => {
    const messages = await lintLibraryRules(path.join(SUBJECTS, 'depot-transfer'));
    const invoke = 'invoke(move-crate-to-shelf, {crate="K9", shelf="S2"})';
    expect(messages.map((m) => [m.ruleId, m.line, m.column])).toEqual([
      ['redescribes-contract', 10, 1],
      ['contradicts-template', 26, 9],
    ]);
    const contradiction = messages[1]!;
    expect(contradiction.message).toBe("'put crate K9 on shelf S2' contradicts contract move-crate-to-shelf (Store the crate): its template `move crate {crate} to shelf {shelf}` says 'move', this line says 'put'");
    expect(contradiction.suggestion).toBe(invoke);
    expect([contradiction.endLine, contradiction.endColumn]).toEqual([26, 33]);
    expect(contradiction.fix).toBeUndefined();
  });

  it('says nothing about a skill that re-describes the contract consistently', async () => {
    const messages = await lintLibraryRules(path.join(SUBJECTS, 'depot-putaway'));
    expect(messages.filter((m) => m.ruleId === 'contradicts-template')).toEqual([]);
  });
});

describe('a bad --dist', () => {
  const copyOfDist = (name: string) => {
    const to = path.join(scratch, 'bad', name);
    fs.cpSync(dist, to, { recursive: true });
    return to;
  };

  it('a missing folder', () => {
    const missing = path.join(scratch, 'nowhere');
    expect(() => loadLintDist(missing)).toThrow(DistError);
    expect(() => loadLintDist(missing)).toThrow(`${missing}: no such folder`);
  });

  it('a folder that is not a dist (the library itself)', () => {
    expect(() => loadLintDist(LIBRARY)).toThrow(`${LIBRARY} is not a skillc dist: it has no manifest.json`);
  });

  it('a promoted contract without its file', () => {
    const d = copyOfDist('no-contract');
    fs.rmSync(path.join(d, 'contracts', 'move-crate-to-shelf.json'));
    expect(() => loadLintDist(d)).toThrow(`${path.join(d, 'contracts', 'move-crate-to-shelf.json')} is missing, but candidates.json auto-promotes contract move-crate-to-shelf`);
  });

  it('a contract id leading out of the dist (read confined to it)', () => {
    const d = copyOfDist('contract-outside');
    const file = path.join(d, 'candidates.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll('"contract": "move-crate-to-shelf"', '"contract": "../../../../../../etc/passwd"'));
    expect(() => loadLintDist(d)).toThrow(DistError);
    expect(() => loadLintDist(d)).toThrow(/candidates\.json names contract file contracts\/(\.\.\/){6}etc\/passwd\.json for cluster c-[0-9a-f]+, which is outside the dist/);
  });

  it('a candidates.json that is not JSON', () => {
    const d = copyOfDist('bad-json');
    fs.writeFileSync(path.join(d, 'candidates.json'), '{"schemaVersion": 1,');
    expect(() => loadLintDist(d)).toThrow(`${path.join(d, 'candidates.json')} is not valid JSON`);
  });

  it('a contract that does not match its schema', () => {
    const d = copyOfDist('bad-schema');
    const file = path.join(d, 'contracts', 'move-crate-to-shelf.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete doc['templates'];
    fs.writeFileSync(file, JSON.stringify(doc));
    expect(() => loadLintDist(d)).toThrow(`${file} does not match schemas/contract.schema.json: / must have required property 'templates'`);
  });

  it('makes skillc lint exit 2 with the message', () => {
    const r = skillc(['lint', '--dist', LIBRARY, path.join(SUBJECTS, 'depot-putaway')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a skillc dist: it has no manifest.json');
  });
});
