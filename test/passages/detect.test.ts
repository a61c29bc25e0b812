/**
 * Shared passages: a section body found in three or more skills, verbatim or with only names and
 * numbers changed, becomes one passage whose template gives every member's body back exactly.
 */
import { describe, expect, it } from 'vitest';
import { collapsedAtLeast, detectPassages, identityOf, render } from '../../src/passages/detect.js';
import { parentOf } from '../helpers/skill.js';

const PITFALLS = '- Never hardcode a tool slug: search for it first.\n- Check that the connection is ACTIVE before any call.\n- Keep paging while a response holds a token.';
const skill = (name: string, sections: string) => parentOf(name, `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n\n${sections}\n`);

describe('detectPassages', () => {
  it('finds a body repeated verbatim in three skills, with no slots, and gives each body back', () => {
    const parents = ['a', 'b', 'c'].map((n) => skill(n, `## Known pitfalls\n\n${PITFALLS}\n\n## Other\n\nSomething only ${n} says, long enough to be a candidate body on its own here.`));
    const [p, ...rest] = detectPassages(parents);
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ id: 'known-pitfalls', heading: 'Known pitfalls', slots: [], text: PITFALLS });
    expect(p!.members.map((m) => m.parent)).toEqual(['a', 'b', 'c']);
    for (const m of p!.members) {
      const parent = parents.find((x) => x.path === m.parent)!;
      const text = parent.frontmatter.raw + parent.units.map((u) => u.text).join('');
      expect(text.slice(m.start, m.end)).toBe(PITFALLS);
    }
  });

  it('needs three skills: two are not enough, and a copy of one of them does not count', () => {
    const two = ['a', 'b'].map((n) => skill(n, `## Known pitfalls\n\n${PITFALLS}`));
    expect(detectPassages(two)).toEqual([]);
    const copy = skill('a-copy', `## Known pitfalls\n\n${PITFALLS}`);
    expect(detectPassages([...two, copy], new Set(['a-copy']))).toEqual([]);
    expect(detectPassages([...two, copy])).toHaveLength(1);
  });

  it('makes a slot of each skill\'s own name (a lower-case slug or a name) and of numbers, one slot per pattern of values', () => {
    const body = (name: string, Title: string, n: number) => `Connect the ${name} toolkit once, then call ${Title} at most ${n} times a minute; the ${name} session stays open.`;
    const parents = [['ably', 'Ably', 10], ['asana', 'Asana', 20], ['brevo', 'Brevo', 30]].map(([n, t, k]) => skill(`${n}-automation`, `## Setup\n\n${body(n as string, t as string, k as number)}`));
    const [p] = detectPassages(parents);
    expect(p!.slots).toEqual(['slug', 'name', 'number']);
    expect(p!.text).toBe('Connect the {slug} toolkit once, then call {name} at most {number} times a minute; the {slug} session stays open.');
    expect(p!.members.map((m) => m.bindings)).toEqual([
      { slug: 'ably', name: 'Ably', number: '10' },
      { slug: 'asana', name: 'Asana', number: '20' },
      { slug: 'brevo', name: 'Brevo', number: '30' },
    ]);
    for (const [i, m] of p!.members.entries()) expect(render(p!.text, p!.slots, m.bindings)).toBe(body(...([['ably', 'Ably', 10], ['asana', 'Asana', 20], ['brevo', 'Brevo', 30]][i] as [string, string, number])));
  });

  it('does not mask a word that is not the skill\'s own name, and keeps braces of the text literal', () => {
    const differ = ['alpha', 'beta', 'gamma'].map((n, i) => skill(n, `## Setup\n\nRun the installer with the ${['fast', 'slow', 'safe'][i]} profile and keep the log file next to the project folder.`));
    expect(detectPassages(differ)).toEqual([]);
    const braces = ['alpha', 'beta', 'gamma'].map((n) => skill(n, `## Payload\n\nSend \`{"model": "${n}", "items": []}\` as the body; the server answers with {status} and a request id for the ${n} call.`));
    const [p] = detectPassages(braces);
    expect(p!.slots).toEqual(['slug']);
    expect(p!.text).toContain('`{{"model": "{slug}", "items": []}}`');
    expect(p!.text).toContain('{{status}}');
    expect(render(p!.text, p!.slots, { slug: 'beta' })).toBe('Send `{"model": "beta", "items": []}` as the body; the server answers with {status} and a request id for the beta call.');
  });

  it('takes a name of several words as one value: `capsule_crm` and `ably` fill the same slot', () => {
    const body = (slug: string, Title: string) => `Call MANAGE_CONNECTIONS with toolkit \`${slug}\` to connect ${Title}, then keep the session id for every later call of the run.`;
    const names = [['ably', 'Ably'], ['capsule_crm', 'Capsule CRM'], ['google_search_console', 'Google Search Console']];
    const parents = names.map(([slug, Title]) => skill(`${slug!.replace(/_/g, '-')}-automation`, `## Setup\n\n${body(slug!, Title!)}`));
    const [p] = detectPassages(parents);
    expect(p!.slots).toEqual(['slug', 'name']);
    expect(p!.members.map((m) => m.bindings)).toEqual(names.map(([slug, name]) => ({ slug, name })));
  });

  it('takes a twin whose short name leaves its body under the length a group needs', () => {
    // 80 characters or more with `coupa` and the like; 78 with `exa`.
    const body = (slug: string) => '```\nRUBE_MANAGE_CONNECTIONS\ntoolkits: ["' + slug + '"]\nsession_id: "your_session_id"\n```';
    expect(collapsedAtLeast(body('exa'), 80)).toBe(false);
    const parents = ['coupa', 'exa', 'brevo', 'ably'].map((slug) => skill(`${slug}-automation`, `## Check connection\n\n${body(slug)}`));
    const [p] = detectPassages(parents);
    expect(p!.members.map((m) => m.bindings['slug'])).toEqual(['coupa', 'exa', 'brevo', 'ably']);
    // Short bodies alone make no group.
    expect(detectPassages(['exa', 'ably', 'xyz'].map((slug) => skill(`${slug}-automation`, `## Check connection\n\n${body(slug)}`)))).toEqual([]);
  });

  it('reads a name whose words are written apart or run together: `Ko Fi` for ko-fi, `ActiveCampaign` for active-campaign', () => {
    const body = (Title: string) => `Automate ${Title} operations through the ${Title} toolkit; always search the tools first for their current schemas.`;
    const names = [['ably', 'Ably'], ['ko-fi', 'Ko Fi'], ['active-campaign', 'ActiveCampaign'], ['brevo', 'Brevo']];
    const [p] = detectPassages(names.map(([folder, Title]) => skill(`${folder}-automation`, `## Overview\n\n${body(Title!)}`)));
    expect(p!.members.map((m) => m.bindings['name'])).toEqual(['Ably', 'Ko Fi', 'ActiveCampaign', 'Brevo']);
  });
});

describe('collapsedAtLeast', () => {
  it("agrees with the collapsed, trimmed text's length on generated texts", () => {
    const pieces = ['a', 'bc', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', 'é', '😀', '\u0085', '-'];
    let x = 5;
    const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < 5_000; k++) {
      let text = '';
      for (let i = Math.floor(next() * 12); i > 0; i--) text += pieces[Math.floor(next() * pieces.length)];
      const length = text.replace(/\s+/g, ' ').trim().length;
      for (const min of [0, 1, 2, 3, 5, 8]) expect(collapsedAtLeast(text, min), `${JSON.stringify(text)} ${min}`).toBe(length >= min);
    }
  });
});

describe('a passage\'s heading', () => {
  it('is the members\' heading with the words they do not share as "…", and its id their shared words', () => {
    const body = (Title: string) => `Run the ${Title} tools found in step 1 through the workbench, one call per batch, and check each result before the next.`;
    const names = [['ably', 'Ably'], ['capsule-crm', 'Capsule CRM'], ['brevo', 'Brevo']];
    const [p] = detectPassages(names.map(([folder, Title]) => skill(`${folder}-automation`, `## 2. Execute ${Title} Operations\n\n${body(Title!)}`)));
    expect(p!.heading).toBe('2. Execute … Operations');
    expect(p!.id).toBe('2-execute-operations');
  });
});

describe('identityOf', () => {
  it('stays small for a frontmatter name of thousands of words', () => {
    const name = Array.from({ length: 5000 }, (_, i) => `w${i}x`).join(' ');
    const p = parentOf('long-name', `---\nname: ${name}\ndescription: d\n---\n# A\n`);
    const id = identityOf(p);
    // Every word, and runs of two to four of the first twelve words.
    expect(id.all.size).toBeLessThan(5000 + 4 + 40);
    expect(id.strong.has('w0xw1x')).toBe(true);
    expect(id.strong.has('w0xw1xw2xw3xw4x')).toBe(false);
  });
});
