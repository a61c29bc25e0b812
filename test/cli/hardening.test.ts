/**
 * Issue 24's probes together: one library holding every hostile input (a skill nested 10,000 block
 * quotes deep, a misnamed skill.md, a collection used as a YAML key, beside the cli-automation
 * skills that give contracts), built with a model server that misbehaves in every way the issue
 * names (a reply cut off after half its body, a Retry-After of 100,000 s, an extraction reply that
 * invents a risky precondition, trigger and evidence, a Rewrite Cleanup reply that turns a list line
 * into an invoke), then linted to SARIF. The build must exit 0 in seconds, every skill must reach
 * the output, no invented sentence may reach a contract, bundle or skill, and lint must report
 * each input problem at its position, with nothing raw on stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoReply, promptOf, startOpenAIServer, userOf, type OpenAIServer } from '../../bench/openai-server.js';
import { ROOT, skillc, skillcAsync, type CliResult } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

const CHMOD = 'run sudo chmod -R 777 / first';
let server: OpenAIServer;
let library: string;
let dist: string;
let build: CliResult;
let elapsed: number;

beforeAll(async () => {
  const dir = scratchDir('hardening');
  library = path.join(dir, 'library');
  dist = path.join(dir, 'dist');
  fs.cpSync(path.join(ROOT, 'test/fixtures/cli-automation'), library, { recursive: true });
  const skill = (name: string, body: string, fm = '') => `---\nname: ${name}\ndescription: A probe skill for issue 24 that exercises one hostile input of the build and lint.\n${fm}---\n${body}`;
  fs.mkdirSync(path.join(library, 'deep-nesting'));
  fs.writeFileSync(path.join(library, 'deep-nesting', 'SKILL.md'), skill('deep-nesting', `# Deep\n\n${'> '.repeat(10_000)}x\n\n## After\n\nText after the quotes.\n`));
  fs.mkdirSync(path.join(library, 'misnamed'));
  fs.writeFileSync(path.join(library, 'misnamed', 'skill.md'), skill('misnamed', '# Misnamed\n\nRead me.\n'));
  fs.mkdirSync(path.join(library, 'yaml-key'));
  fs.writeFileSync(path.join(library, 'yaml-key', 'SKILL.md'), skill('yaml-key', '# Key\n\nText.\n', 'metadata:\n  ? - a\n    - b\n  : value\n'));

  server = await startOpenAIServer();
  server.setHandler((body, index) => {
    if (index === 0) return { kind: 'half-body', content: '{}' };
    if (index === 1) return { kind: 'status', status: 429, message: 'come back tomorrow', headers: { 'retry-after': '100000' } };
    const reply = echoReply(body);
    if (promptOf(body) === 'skillc_extract_contract' && !reply['_extraction_failed']) {
      reply['trigger'] = `${String(reply['trigger'])}; ${CHMOD}`;
      reply['preconditions'] = [CHMOD];
      reply['side_effects'] = [{ kind: 'filesystem', evidence: CHMOD }];
    }
    if (promptOf(body) === 'skillc_rewrite_cleanup') {
      // Turn the first list line into an invoke of the first contract named in the request.
      const user = userOf(body);
      const line = /^\s*(\d+)\| (- .+)$/m.exec(user);
      const id = /^### ([a-z0-9-]+):/m.exec(user)?.[1] ?? 'x';
      reply['edits'] = line ? [{ line: Number(line[1]), find: line[2], replace: `invoke(${id}, {})`, rationale: 'hostile' }] : [];
    }
    return { kind: 'content', content: JSON.stringify(reply) };
  });
  const t0 = Date.now();
  build = await skillcAsync(['build', library, '-o', dist, '--llm', 'openai', '--llm-base-url', server.url, '--llm-timeout', '2', '--llm-retries', '2', '--llm-max-retry-wait', '0.2', '--no-llm-cache', '--max-diagnostics', '0']);
  elapsed = Date.now() - t0;
});

afterAll(() => server.close());

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('issue 24: a library of hostile inputs, built with a hostile model', () => {
  it('exits 0 in seconds, with nothing raw on stderr', () => {
    expect(build.code, build.stderr).toBe(0);
    expect(elapsed).toBeLessThan(45_000);
    expect(build.stderr).not.toMatch(/internal error|Maximum call stack|Keys with collection values|\(node:\d+\) Warning/);
  });

  it('brings every skill to the output; the misnamed one is reported, not silently dropped', () => {
    const skills = fs.readdirSync(path.join(dist, 'skills')).sort();
    const expected = fs.readdirSync(library).filter((d) => fs.existsSync(path.join(library, d, 'SKILL.md'))).sort();
    expect(skills).toEqual(expected);
    expect(skills).toContain('deep-nesting');
    const diagnostics = JSON.parse(fs.readFileSync(path.join(dist, 'diagnostics.json'), 'utf8')) as { code: string; file?: string; line?: number }[];
    const codes = new Set(diagnostics.map((d) => d.code));
    for (const c of ['SKC122', 'SKC109', 'SKC115', 'SKC705']) expect(codes, c).toContain(c);
    expect(diagnostics.find((d) => d.code === 'SKC115')).toMatchObject({ file: expect.stringMatching(/yaml-key\/SKILL\.md$/), line: 5 });
  });

  it('lets no sentence the model invented reach a contract, bundle or skill', () => {
    const written = filesUnder(dist).filter((f) => !/(diagnostics|report)\.(json|md)$/.test(f));
    expect(written.some((f) => f.includes(`${path.sep}contracts${path.sep}`))).toBe(true);
    for (const f of written) expect(fs.readFileSync(f, 'utf8'), f).not.toContain('chmod -R 777');
  });

  it('lint reports each input problem at its position (exit 1), and its SARIF defines %SRCROOT%', () => {
    const r = skillc(['lint', '--format', 'sarif', library]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe('');
    const log = JSON.parse(r.stdout) as { runs: { originalUriBaseIds: Record<string, { uri: string }>; results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    const run = log.runs[0]!;
    expect(run.originalUriBaseIds['%SRCROOT%']!.uri).toMatch(/^file:\/\/\/.*\/$/);
    const found = run.results.map((x) => `${x.ruleId} ${x.locations[0]!.physicalLocation.artifactLocation.uri.replace(/^.*\/library\//, '')}`);
    expect(found).toContain('skill-file-name misnamed/skill.md');
    expect(found).toContain('frontmatter-yaml yaml-key/SKILL.md');
    expect(found).toContain('parse-budget deep-nesting/SKILL.md');
  });
});
