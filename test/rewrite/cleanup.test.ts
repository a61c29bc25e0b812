/**
 * Deterministic Rewrite Cleanup: the paper's appendix B case is rewritten, and lines that agree
 * with the contract, act differently on the same objects, or are mere intros are left alone.
 */
import { describe, expect, it } from 'vitest';
import { cleanupEdits, type InvokedContract } from '../../src/rewrite/cleanup.js';
import { applyEdits, parentText } from '../../src/rewrite/splice.js';
import { lexiconFrom } from '../../src/propose/lexicon.js';
import type { CallSite } from '../../src/ir/types.js';
import { contractOf, parentOf } from '../helpers/skill.js';

const lexicon = lexiconFrom({ navigate: ['go', 'move'], put: ['put', 'place'], take: ['take'], verify: ['inspect', 'examine'] });
const contract = contractOf('place-object', ['move {object} to {target}']);

function run(example: string) {
  const text = `# Transport\n\n## Place the object\n\n1. move laptop 1 to desk 1\n\n## Example\n\n${example}`;
  const parent = parentOf('t', text);
  const unit = parent.units.find((u) => u.heading === 'Place the object')!;
  const callSite: CallSite = { unit: unit.id, parent: 't', file: 't/SKILL.md', line: unit.line, contract: contract.id, detection: 'member', bindings: { object: 'laptop 1', target: 'desk 1' }, actions: [], invoke: '', binder: 'deterministic' };
  const invoked: InvokedContract[] = [{ callSite, contract, verb: 'put' }];
  const r = cleanupEdits(parent, invoked, lexicon);
  return { ...r, text: applyEdits(parentText(parent), r.edits) };
}

describe('Rewrite Cleanup', () => {
  it('rewrites put X in/on Y against move {object} to {target} (SaP appendix B), keeping the label', () => {
    const r = run('```text\nAction: go to desk 1\nAction: put laptop 1 in/on desk 1\nObservation: You put the laptop 1 in/on the desk 1.\n```\n');
    expect(r.cleanups).toHaveLength(1);
    expect(r.cleanups[0]).toMatchObject({ line: 11, before: 'put laptop 1 in/on desk 1', after: 'invoke(place-object, {object="laptop 1", target="desk 1"})' });
    // Inside a fence the call is written raw; outside it would be a code span.
    expect(r.text).toContain('Action: invoke(place-object, {object="laptop 1", target="desk 1"})\nObservation: You put');
  });

  it('writes the invoke raw inside a fence indented in a list item (fences come from the parser)', () => {
    const r = run('1. Replay it:\n\n    ```text\n    Action: put laptop 1 in/on desk 1\n    ```\n');
    expect(r.text).toContain('    Action: invoke(place-object, {object="laptop 1", target="desk 1"})\n    ```');
  });

  it('wraps the invoke in a code span in prose and keeps list markers', () => {
    const r = run('1. place laptop 1 on desk 1\n');
    expect(r.text).toContain('1. `invoke(place-object, {object="laptop 1", target="desk 1"})`\n');
  });

  it('leaves alone: an instance of the template, another action on the same objects, intros, other commands', () => {
    for (const line of ['move laptop 1 to desk 1', 'inspect laptop 1 on desk 1', 'Put laptop 1 on desk 1:', 'put `laptop 1` on desk 1 with `--force`', 'put laptop 1 in/on desk 1 and then clean the whole room carefully', 'put laptop 1 somewhere']) {
      expect(run(`${line}\n`).cleanups, line).toEqual([]);
    }
  });
});
