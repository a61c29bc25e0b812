/**
 * The serve tools and the served dist, in process: paging and its cursors, skill and contract
 * lookup (a path or id is looked up, never opened as given), the reload of a rebuilt dist, and the
 * "did you mean" suggestions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildQueryFixtures, skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';
import { loadServedDist, openServedDist, ServeError, type ServedDist } from '../../src/serve/served-dist.js';
import { findSkill, listPage, MAX_TEXT_CHARS, readContract, runTool, SERVE_TOOLS, textPart, ToolInputError, type ServeTool } from '../../src/serve/tools.js';
import { readDistText } from '../../src/query/hydrate.js';
import { boundedEditDistance, closestNames } from '../../src/text/edit-distance.js';

let cliDist: string;
let retrievalDist: string;
let served: ServedDist;

beforeAll(() => {
  ({ cliDist, retrievalDist } = buildQueryFixtures('serve-tools'));
  served = loadServedDist(cliDist);
});

describe('list_skills pages', () => {
  it('walks every skill once, in path order, with cursors', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = listPage(served, cursor, 3);
      expect(page.total).toBe(8);
      seen.push(...page.skills.map((s) => s.path));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual(served.skills.map((s) => s.path));
    expect(seen).toEqual([...seen].sort());
  });

  it('refuses a cursor of another build, a forged one and one past the end', () => {
    const cursor = listPage(served, undefined, 3).nextCursor!;
    const other = loadServedDist(retrievalDist);
    expect(() => listPage(other, cursor, 3)).toThrow(/rebuilt since this cursor/);
    expect(() => listPage(served, Buffer.from(`${served.generation}:999`).toString('base64url'))).toThrow(/past the end/);
    expect(() => listPage(served, Buffer.from('0123456789abcdef:-1').toString('base64url'))).toThrow(ToolInputError);
    expect(() => listPage(served, '%%%')).toThrow(/not one list_skills gave/);
  });
});

describe('lookup', () => {
  it('finds a skill by path, by skill: id, with a trailing slash, and by a unique name', () => {
    expect(findSkill(served, 'db-backup').path).toBe('db-backup');
    expect(findSkill(served, 'skill:db-backup').path).toBe('db-backup');
    expect(findSkill(served, 'db-backup/').path).toBe('db-backup');
  });

  it('never opens what the caller names: traversal and absolute paths are unknown skills and contracts', () => {
    for (const asked of ['../cli/graph.json', '/etc/passwd', 'db-backup/../../x', '']) expect(() => findSkill(served, asked)).toThrow(ToolInputError);
    for (const asked of ['../graph', '/etc/passwd', 'git-clone-url/../../graph', 'GIT-CLONE-URL']) expect(() => readContract(served, asked)).toThrow(ToolInputError);
    expect(readContract(served, 'git-clone-url').contract).toHaveProperty('call_sites');
  });

  it('accepts the ways answers name a skill: a skill:// URI, a Source: path, a listed bundle', () => {
    for (const asked of ['skill://db-backup', 'skill://db-backup?x=1#y', 'skills/db-backup/SKILL.md', 'db-backup/SKILL.md']) expect(findSkill(served, asked).path, asked).toBe('db-backup');
    const rewritten = served.skills.find((s) => s.node.bundle.startsWith('bundles/'))!;
    expect(findSkill(served, rewritten.node.bundle).path).toBe(rewritten.path);
  });

  it('a tool error names the tool and the problem, echoes at most 200 characters of the argument; a programming error is not swallowed', async () => {
    const handle = openServedDist(cliDist);
    const tool = SERVE_TOOLS.find((t) => t.name === 'get_skill_bundle')!;
    const r = await runTool(tool, handle, { skill: 'db-bakup' });
    expect(r.isError).toBe(true);
    expect(r.content[0]).toEqual({ type: 'text', text: 'get_skill_bundle: no skill "db-bakup" in the library; did you mean db-backup?' });
    const long = await runTool(tool, handle, { skill: 'x'.repeat(4000) });
    expect((long.content[0] as { text: string }).text.length).toBeLessThan(400);
    expect((long.content[0] as { text: string }).text).toMatch(/… \(4000 characters\)/);
    await expect(runTool({ ...tool, handler: () => { throw new TypeError('bug'); } }, handle, {})).rejects.toThrow(TypeError);
    handle.close();
  });

  it('runs a call again when a build replaced the dist under it, instead of blaming the dist', async () => {
    const dir = scratchDir('serve-midcall');
    const dist = path.join(dir, 'dist');
    fs.cpSync(cliDist, dist, { recursive: true });
    const handle = openServedDist(dist);
    let calls = 0;
    const reader: ServeTool = {
      name: 'read_first', title: '', description: '', inputSchema: {},
      handler(s) {
        // The first call's index is the old build's; the build replaces the dist while it runs.
        if (calls++ === 0) expect(skillc(['build', 'test/fixtures/retrieval', '-o', dist, '-q', '--force']).code).toBe(0);
        return { content: [{ type: 'text', text: readDistText(s.dist, s.skills[0]!.node.bundle, 'bundle', s.skills[0]!.path) }] };
      },
    };
    const r = await runTool(reader, handle, {});
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(calls).toBe(2);
    expect(handle.current().skills.map((x) => x.path)).not.toContain('db-backup');
    handle.close();
  });
});

describe('long skills come in parts', () => {
  it('cuts at whole lines under the cap, says where the next part starts, and the parts make up the whole', () => {
    const whole = Array.from({ length: 30_000 }, (_, i) => `line ${i} ${'x'.repeat(90)}`).join('\n');
    const parts: string[] = [];
    let from = 1;
    for (;;) {
      const part = textPart(whole, from, 'big');
      const note = /\n\[skillc: lines (\d+)–(\d+) of 30000; call get_skill_bundle with \{"skill": "big", "fromLine": (\d+)\} for the rest\]\n$/.exec(part);
      expect(part.length).toBeLessThanOrEqual(MAX_TEXT_CHARS + 200);
      if (!note) {
        parts.push(part);
        break;
      }
      expect(Number(note[1])).toBe(from);
      parts.push(part.slice(0, note.index));
      from = Number(note[3]);
    }
    expect(parts.length).toBe(Math.ceil(whole.length / MAX_TEXT_CHARS));
    expect(parts.join('')).toBe(whole);
    expect(() => textPart(whole, 30_001, 'big')).toThrow(/past the end/);
    expect(textPart('short\ntext', 2, 's')).toBe('text');
  });

  it('goes on inside a line longer than a part, and never cuts a surrogate pair', () => {
    // An emoji straddling the cap, and more text after the first cut than fits in one part.
    const long = `${'A'.repeat(MAX_TEXT_CHARS - 1)}😀${'B'.repeat(MAX_TEXT_CHARS + 10)}END`;
    const whole = `head\n${long}\ntail`;
    let out = '';
    let next: { fromLine: number; fromColumn?: number } = { fromLine: 1 };
    for (let n = 0; n < 10; n++) {
      const part = textPart(whole, next.fromLine, 'big', next.fromColumn ?? 1);
      const note = /\n\[skillc: [^\]]*call get_skill_bundle with (\{[^}]*\}) for the rest\]\n$/.exec(part);
      const body = note ? part.slice(0, note.index) : part;
      // No lone high surrogate at a cut: each part is well-formed UTF-16.
      expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(body)).toBe(false);
      out += body;
      if (!note) break;
      next = JSON.parse(note[1]!) as typeof next;
    }
    expect(out).toBe(whole);
    expect(() => textPart(whole, 2, 'big', long.length + 1)).toThrow(/past the end of line 2/);
  });

  it('goes on at the next line when a cut ends exactly at a line\'s end, or before only its \\r', () => {
    for (const eol of ['\n', '\r\n']) {
      const whole = `${'A'.repeat(MAX_TEXT_CHARS)}${eol}${'B'.repeat(10)}${eol}tail`;
      const first = textPart(whole, 1, 'big');
      const note = /\n\[skillc: [^\]]*call get_skill_bundle with (\{[^}]*\}) for the rest\]\n$/.exec(first)!;
      const next = JSON.parse(note[1]!) as { fromLine: number; fromColumn?: number };
      expect(next).toEqual({ skill: 'big', fromLine: 2 });
      expect(first.slice(0, note.index) + textPart(whole, next.fromLine, 'big', next.fromColumn ?? 1)).toBe(whole);
    }
    // The last line, with a lone \r after the cut: the part ends the text, and points nowhere.
    const last = `head\n${'A'.repeat(MAX_TEXT_CHARS)}\r`;
    expect(textPart(last, 2, 'big')).toBe(`${'A'.repeat(MAX_TEXT_CHARS)}\r`);
  });
});

describe('reload', () => {
  it('reloads when manifest.json is replaced, keeps serving when it is missing for an instant, and recovers from a damaged build', () => {
    const dir = scratchDir('serve-reload-unit');
    const dist = path.join(dir, 'dist');
    fs.cpSync(cliDist, dist, { recursive: true });
    const handle = openServedDist(dist);
    const events: string[] = [];
    handle.watch(60_000, (r) => events.push(r instanceof ServeError ? 'error' : `ok ${r.skills.length}`));
    const first = handle.current();
    expect(handle.current()).toBe(first); // unchanged: the same object, nothing re-read

    const aside = path.join(dir, 'aside');
    fs.renameSync(dist, aside);
    expect(handle.current()).toBe(first); // between a build's two renames
    fs.renameSync(aside, dist);

    expect(skillc(['build', 'test/fixtures/retrieval', '-o', dist, '-q', '--force']).code).toBe(0);
    const second = handle.current();
    expect(second).not.toBe(first);
    expect(second.generation).not.toBe(first.generation);

    fs.writeFileSync(path.join(dist, 'index', 'core.json'), '[]');
    fs.appendFileSync(path.join(dist, 'manifest.json'), ' ');
    expect(() => handle.current()).toThrow(/not a query index.*serving resumes when a build replaces it/);
    expect(skillc(['build', 'test/fixtures/cli-automation', '-o', dist, '-q', '--force']).code).toBe(0);
    expect(handle.current().skills).toHaveLength(8);
    expect(events).toEqual([`ok ${second.skills.length}`, 'error', 'ok 8']);
    handle.close();
  });
});

describe('edit distance', () => {
  it('is Levenshtein within the bound and bound + 1 beyond it', () => {
    expect(boundedEditDistance('kitten', 'sitting', 5)).toBe(3);
    expect(boundedEditDistance('kitten', 'sitting', 2)).toBe(3);
    expect(boundedEditDistance('', 'abc', 5)).toBe(3);
    expect(boundedEditDistance('same', 'same', 0)).toBe(0);
    expect(boundedEditDistance('a', 'abcdefgh', 3)).toBe(4);
  });

  it('suggests near names, nearest first, matching the last path segment too', () => {
    const names = ['anthropic/pdf', 'anthropic/docx', 'community/pdf-tools', 'community/xlsx'];
    expect(closestNames('pdff', names)).toEqual(['anthropic/pdf']);
    expect(closestNames('pdf', names)).toEqual(['anthropic/pdf', 'community/pdf-tools']);
    expect(closestNames('community/pdf-tool', names)).toEqual(['community/pdf-tools', 'anthropic/pdf']);
    expect(closestNames('docs', names)).toEqual(['anthropic/docx']);
    expect(closestNames('zzzzzz', names)).toEqual([]);
  });
});
