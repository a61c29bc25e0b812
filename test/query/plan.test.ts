/**
 * `skillc query --plan` (issue 21 item 4) on built fixture libraries: test/fixtures/retrieval (a
 * PCAP producer and consumer, a changelog → release-notes workflow) and test/fixtures/cli-automation
 * (eight skills that invoke one contract). Each asserts a property of real output that a wrong plan
 * would break: order along dep and wf edges, prerequisites, contracts stated once, the budget.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildQueryFixtures, skillc } from '../helpers/cli.js';
import { openRetriever, type Retriever } from '../../src/query/retriever.js';
import { planSteps, taskClauses } from '../../src/query/plan.js';
import { indexOf, readGraphDocument } from '../../src/query/graph-index.js';
import { renderPlanJson, renderPlanMarkdown } from '../../src/query/render.js';
import { validateAgainst } from '../../src/schema/validate.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

let retrievalDist: string;
let cliDist: string;
let retrieval: Retriever;
let cli: Retriever;

beforeAll(() => {
  ({ retrievalDist, cliDist } = buildQueryFixtures('plan'));
  retrieval = openRetriever(retrievalDist);
  cli = openRetriever(cliDist);
}, 60_000);

describe('plan steps', () => {
  it('puts the producer of an artifact before its consumer, with the edge that says why', () => {
    const plan = planSteps(retrieval.index, 'detect intrusions and suspicious beaconing', 8);
    expect(plan.steps.map((s) => [s.hit.node.path, s.role])).toEqual([
      ['pcap-capture', 'prerequisite'],
      ['threat-detection', 'match'],
    ]);
    expect(plan.steps[1]!.after).toEqual([{ step: 1, type: 'dep', detail: 'outputs pcap' }]);
    // The ranking puts the consumer first: the plan reorders it.
    expect(retrieval.rank('detect intrusions and suspicious beaconing', 8).hits[0]!.node.path).toBe('threat-detection');
  });

  it('follows a workflow edge whichever skill the words match best', () => {
    const plan = planSteps(retrieval.index, 'publish the release notes for the changelog', 8);
    const order = plan.steps.map((s) => s.hit.node.path);
    expect(order).toContain('changelog-writer');
    expect(order).toContain('release-notes');
    expect(order.indexOf('changelog-writer')).toBeLessThan(order.indexOf('release-notes'));
    // The words match release-notes best; the workflow edge puts the changelog first.
    expect(retrieval.rank('publish the release notes for the changelog', 8).hits[0]!.node.path).toBe('release-notes');
  });

  it('keeps only seeds near the best one: a plan is shorter than the ranked list', () => {
    const plan = planSteps(cli.index, 'back up a postgres database', 8);
    const ranked = cli.rank('back up a postgres database', 8).hits;
    expect(plan.steps[0]!.hit.node.path).toBe('db-backup');
    expect(plan.steps.length).toBeLessThan(ranked.length);
    for (const s of plan.steps) expect(s.hit.score).toBeGreaterThanOrEqual(0.6 * ranked[0]!.score);
  });

  it('places a prerequisite right before the step it feeds, and keeps the others where the task names them', () => {
    const TASK = 'clone a repository, set up a python environment and download a dataset';
    const doc = readGraphDocument(cliDist);
    expect(planSteps(cli.index, TASK, 8).steps.map((s) => s.hit.node.path)).toEqual(['docker-image-build', 'download-dataset', 'csv-to-sqlite', 'python-env-setup']);
    // Say python-env-setup (ranked 5th) made what csv-to-sqlite (2nd) takes: it moves up to stand
    // right before it, and the others keep their places.
    const edge = { from: 'skill:python-env-setup', to: 'skill:csv-to-sqlite', type: 'dep' as const, weight: 1, evidence: [{ kind: 'artifact' as const, detail: 'outputs csv' }] };
    const withEdge = indexOf(cliDist, { ...doc, edges: [...doc.edges, edge] });
    const plan = planSteps(withEdge, TASK, 8);
    expect(plan.steps.map((s) => s.hit.node.path)).toEqual(['docker-image-build', 'download-dataset', 'python-env-setup', 'csv-to-sqlite']);
    expect(plan.steps[3]!.after).toEqual([{ step: 3, type: 'dep', detail: 'outputs csv' }]);
    expect(plan.steps[2]!.feeds).toEqual([{ step: 4, type: 'dep', detail: 'outputs csv' }]);
  });

  it('puts the steps no edge orders in the order the task names them, with the words each serves', () => {
    const order = (task: string) => planSteps(cli.index, task, 8).steps.map((s) => s.hit.node.path);
    // The same two needs in either order: the ranking is the same, the plan follows the task.
    expect(order('download a dataset, then set up a python environment')).toEqual(['download-dataset', 'csv-to-sqlite', 'python-env-setup']);
    expect(order('set up a python environment and then download a dataset')).toEqual(['python-env-setup', 'download-dataset', 'csv-to-sqlite']);
    expect(cli.rank('set up a python environment and then download a dataset', 8).hits[0]!.node.path).toBe('download-dataset');
    const steps = planSteps(cli.index, 'set up a python environment and then download a dataset', 8).steps;
    expect(steps.map((s) => s.serves)).toEqual([['python', 'environment'], ['download', 'dataset'], ['download']]);
    expect(taskClauses('Read model.py, fit the loss; then train it\nand save it')).toEqual(['Read model.py', ' fit the loss', 'then train it', 'and save it']);
    // Cut where ranking cuts a long task: not inside a word, so a step never serves half a word ranking did not read.
    expect(taskClauses('resize images, extract pdf text'.padEnd(99_995) + 'batchfoo').join('')).not.toContain('batch');
  });

  it('stops at k steps', () => {
    expect(planSteps(cli.index, 'install packages and download data with curl', 2).steps).toHaveLength(2);
  });
});

describe('plan answers', () => {
  const TASK = 'clone a repository, set up a python environment and download a dataset';

  it('states each contract the steps invoke once, and names the steps that invoke it', async () => {
    const r = await cli.plan(TASK);
    expect(r.status).toBe('ok');
    expect(r.steps.length).toBeGreaterThan(1);
    expect(r.steps.every((s) => s.invokes.includes('git-clone-url'))).toBe(true);
    expect(r.contracts.map((c) => [c.id, c.file, c.steps, c.hydration])).toEqual([['git-clone-url', 'contracts/git-clone-url.md', r.steps.map((s) => s.rank), 'full']]);
    const md = renderPlanMarkdown(r);
    expect(md.match(/^# git-clone-url$/gm)).toHaveLength(1);
    expect(md).toMatch(/^Contracts the steps invoke, each stated once: `git-clone-url` \(steps 1, 2/m);
    // The outline comes first, then the contract, then the bundles in step order.
    expect(md.indexOf('# Plan:')).toBeLessThan(md.indexOf('# git-clone-url'));
    expect(md.indexOf('# git-clone-url')).toBeLessThan(md.indexOf(`# 1. ${r.steps[0]!.node.name}`));
  });

  it('keeps the whole answer within the budget and lists every step', async () => {
    for (const budget of [400, 1500, 4000, 8000]) {
      const r = await cli.plan(TASK, { budget });
      const md = renderPlanMarkdown(r);
      expect(r.tokens.charged, `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(countTokens(md), `budget ${budget}`).toBeLessThanOrEqual(r.tokens.charged);
      for (const [i, s] of r.steps.entries()) expect(md, `budget ${budget}`).toContain(`${i + 1}. **${s.node.name}**`);
    }
    const tight = await cli.plan(TASK, { budget: 400 });
    expect(tight.contracts[0]!.hydration).toBe('listed');
  });

  it('keeps every step of the plan in its outline when the budget holds few bundles, and names the rest', async () => {
    const all = planSteps(cli.index, TASK, 8).steps.length;
    for (const budget of [700, 1000]) {
      const r = await cli.plan(TASK, { budget });
      expect(r.steps, `budget ${budget}`).toHaveLength(all);
      const listed = r.steps.filter((s) => s.hydration === 'listed');
      expect(listed.length, `budget ${budget}`).toBeGreaterThan(0);
      for (const s of listed) expect(s.cost).toBe(0);
      const md = renderPlanMarkdown(r);
      expect(md).toMatch(new RegExp(`^# Plan: ${all} steps$`, 'm'));
      expect(md).toContain(`Over the budget, not shown (the outline above gives their files): step${listed.length === 1 ? '' : 's'} ${listed.map((s) => s.rank).join(', ')}.`);
      expect(countTokens(md)).toBeLessThanOrEqual(budget);
    }
  });

  it('gives JSON that validates against schemas/plan-result.schema.json', async () => {
    const doc = JSON.parse(renderPlanJson(await retrieval.plan('detect intrusions and suspicious beaconing'))) as { steps: { step: number; role: string }[] };
    expect(validateAgainst('plan-result', doc).errors).toEqual([]);
    expect(doc.steps.map((s) => [s.step, s.role])).toEqual([
      [1, 'prerequisite'],
      [2, 'match'],
    ]);
  });

  it('says NO_SKILL_HIT for a task no skill matches', async () => {
    const r = await retrieval.plan('xyzzy plugh frobnicate');
    expect(r.status).toBe('NO_SKILL_HIT');
    expect(r.steps).toEqual([]);
    expect(validateAgainst('plan-result', JSON.parse(renderPlanJson(r))).errors).toEqual([]);
    expect(renderPlanMarkdown(r)).toMatch(/^NO_SKILL_HIT: /);
  });
});

describe('skillc query --plan (CLI)', () => {
  it('prints the plan and exits 0, NO_SKILL_HIT with 1', () => {
    const r = skillc(['query', '--plan', 'detect intrusions and suspicious beaconing', '--dist', retrievalDist]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^<!-- skillc plan "detect intrusions and suspicious beaconing": 2 steps, at most \d+ of 8000 tokens/);
    expect(r.stdout).toContain('1. **pcap-capture**');
    expect(r.stdout).toContain('2. **threat-detection**');
    expect(r.stdout).toContain('[after step 1 (dep: outputs pcap)]');
    expect(skillc(['query', '--plan', 'xyzzy', '--dist', retrievalDist]).code).toBe(1);
  });

  it('prints JSON with --format json', () => {
    const r = skillc(['query', '--plan', 'detect intrusions and suspicious beaconing', '--dist', retrievalDist, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(validateAgainst('plan-result', JSON.parse(r.stdout)).errors).toEqual([]);
  });
});
