/**
 * `skillc lint` end to end through the compiled CLI (`npm test` compiles first): exit codes,
 * the three formats, --fix on disk, configuration discovery, --strict, determinism, and the
 * worker-thread path for large libraries.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LINT_RULES } from '../../src/lint/rules/registry.js';
import { ROOT, skillc, type CliResult } from '../helpers/cli.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';

// ajv-draft-04 is CommonJS; under NodeNext its default import is the module, whose `default` is the class.
const AjvDraft04 = AjvDraft04Module.default;
const validateResults = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', 'lint-results.schema.json'), 'utf8')) as object);

function skill(name: string, opts: { fm?: string; body?: string } = {}): string {
  return `---\nname: ${name}\ndescription: The ${name} skill, written for the lint CLI tests.\n${opts.fm ?? ''}---\n\n# ${name}\n\n${opts.body ?? 'Follow the steps.\n'}`;
}

const root = scratchDir('lint-cli');
writeTree(root, {
  'clean/SKILL.md': skill('clean'),
  // line 9: a link to a missing file (error); line 4: an unknown field (warning)
  'broken/SKILL.md': skill('broken', { fm: 'version: 2\n', body: 'See [the notes](missing.md).\n' }),
  'warny/SKILL.md': skill('warny', { fm: 'version: 2\n' }),
});

/** Runs the CLI with extra environment variables. */
function run(args: readonly string[], cwd: string, env: Record<string, string> = {}): CliResult {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillc.js'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1', ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function json(r: CliResult): { filePath: string; messages: { ruleId: string; severity: number; line: number; column: number }[]; errorCount: number; warningCount: number; output?: string }[] {
  return JSON.parse(r.stdout) as ReturnType<typeof json>;
}

describe('exit codes and stylish output', () => {
  it('exits 0 and prints nothing on a clean skill', () => {
    const r = skillc(['lint', 'clean'], root);
    expect(r).toMatchObject({ code: 0, stdout: '' });
  });

  it('exits 1 on errors, one file:line:col line per problem and a summary', () => {
    const r = skillc(['lint', 'broken'], root);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      "broken/SKILL.md:4:1  warning  unknown frontmatter field 'version': the specification allows allowed-tools, compatibility, description, license, metadata, name; move it under metadata  unknown-fields",
      "broken/SKILL.md:9:5  error  link target 'missing.md' does not exist in the skill  link-resolves",
      '',
      '✖ 2 problems (1 error, 1 warning)',
      '',
    ]);
  });

  it('exits 0 with warnings only, and 1 when they exceed --max-warnings', () => {
    const r = skillc(['lint', 'warny'], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^warny\/SKILL\.md:4:1 {2}warning {2}unknown frontmatter field 'version'.* {2}unknown-fields$/m);
    const limited = skillc(['lint', '--max-warnings', '0', 'warny'], root);
    expect(limited.code).toBe(1);
    expect(limited.stderr).toContain('too many warnings (1)');
    expect(skillc(['lint', '--max-warnings', '1', 'warny'], root).code).toBe(0);
  });

  it('--quiet hides warnings but not errors', () => {
    const broken = skillc(['lint', '--quiet', 'broken'], root);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('link-resolves');
    expect(broken.stdout).not.toContain('unknown-fields');
    expect(broken.stdout).toContain('✖ 1 problem (1 error, 0 warnings)');
    expect(skillc(['lint', '--quiet', 'warny'], root)).toMatchObject({ code: 0, stdout: '' });
    expect(JSON.parse(skillc(['lint', '--quiet', '-f', 'json', 'warny'], root).stdout)).toEqual([
      { filePath: 'warny/SKILL.md', messages: [], errorCount: 0, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0 },
    ]);
  });

  it('exits 2 for a missing path', () => {
    const r = skillc(['lint', 'clean', 'nope'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file or folder: nope');
    expect(r.stdout).toBe('');
  });

  it('exits 2 for a bad config file, naming the file and the bad key', () => {
    const dir = path.join(root, 'configs');
    writeTree(dir, {
      'rule.json': JSON.stringify({ rules: { 'link-depht': 'off' } }),
      'level.json': JSON.stringify({ rules: { 'link-depth': 'warning' } }),
      'option.json': JSON.stringify({ rules: { 'body-length': ['warn', { maxLine: 10 }] } }),
      'top.json': JSON.stringify({ strict: true, rule: {} }),
    });
    const cases: [string, RegExp][] = [
      ['rule.json', /\/rules must NOT have additional properties \(link-depht\)/],
      ['level.json', /\/rules\/link-depth must be equal to one of the allowed values/],
      ['option.json', /\/rules\/body-length\/1 must NOT have additional properties \(maxLine\)/],
      ['top.json', /\/ must NOT have additional properties \(rule\)/],
    ];
    for (const [file, message] of cases) {
      const r = skillc(['lint', '--config', path.join('configs', file), 'clean'], root);
      expect(r.code, file).toBe(2);
      expect(r.stderr, file).toContain(`config ${path.join(dir, file)} is invalid`);
      expect(r.stderr, file).toMatch(message);
      expect(r.stderr, file).not.toContain('internal error');
    }
  });

  it('exits 2 for an unknown --format', () => {
    const r = skillc(['lint', '--format', 'xml', 'clean'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/xml/);
  });

  it('exits 2 when --dist is not a built library', () => {
    const r = skillc(['lint', '--dist', 'clean', 'clean'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a skillc dist');
  });
});

describe('--fix', () => {
  const original = [
    '---',
    'name: fixme',
    'description: A skill whose frontmatter needs the safe fixes, with "quotes" kept.',
    'metadata:',
    '  version: 1.0',
    '  owner: team-a',
    'allowed-tools: [Read, Bash]',
    '---',
    '',
    '# Fix me',
    '',
    'Ünïcödé text — kept as is,\ttabs and trailing spaces too.   ',
    '',
  ].join('\n');
  const expected = original.replace('  version: 1.0', '  version: "1.0"').replace('allowed-tools: [Read, Bash]', 'allowed-tools: Read Bash');

  it('rewrites the fixable problems and leaves every other byte as it was', () => {
    const dir = path.join(root, 'fix-lf');
    writeTree(dir, { 'fixme/SKILL.md': original, 'fixme/notes.md': 'untouched\n' });
    const r = skillc(['lint', '--fix', 'fixme/SKILL.md'], dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(fs.readFileSync(path.join(dir, 'fixme', 'SKILL.md'), 'utf8')).toBe(expected);
    expect(fs.readFileSync(path.join(dir, 'fixme', 'notes.md'), 'utf8')).toBe('untouched\n');
    // A second run has nothing left to fix and does not touch the file.
    const before = fs.statSync(path.join(dir, 'fixme', 'SKILL.md')).mtimeMs;
    expect(skillc(['lint', '--fix', 'fixme'], dir)).toMatchObject({ code: 0, stdout: '' });
    expect(fs.statSync(path.join(dir, 'fixme', 'SKILL.md')).mtimeMs).toBe(before);
  });

  it('without --fix reports the fixable problems and changes nothing', () => {
    const dir = path.join(root, 'fix-none');
    writeTree(dir, { 'fixme/SKILL.md': original });
    const r = skillc(['lint', 'fixme'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('3 problems can be fixed with --fix');
    expect(fs.readFileSync(path.join(dir, 'fixme', 'SKILL.md'), 'utf8')).toBe(original);
  });

  it('keeps CRLF line endings', () => {
    const dir = path.join(root, 'fix-crlf');
    writeTree(dir, { 'fixme/SKILL.md': original.replace(/\n/g, '\r\n') });
    const r = skillc(['lint', '--fix', 'fixme'], dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const after = fs.readFileSync(path.join(dir, 'fixme', 'SKILL.md'), 'utf8');
    expect(after).toBe(expected.replace(/\n/g, '\r\n'));
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('keeps a byte order mark', () => {
    const dir = path.join(root, 'fix-bom');
    writeTree(dir, { 'fixme/SKILL.md': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(original, 'utf8')]) });
    const r = skillc(['lint', '--fix', 'fixme'], dir);
    // The BOM itself is reported (frontmatter-strict, a warning without a fix).
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('byte order mark');
    const bytes = fs.readFileSync(path.join(dir, 'fixme', 'SKILL.md'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(expected);
  });

  it('reports the fixed text as output in json, which validates', () => {
    const dir = path.join(root, 'fix-json');
    writeTree(dir, { 'fixme/SKILL.md': original });
    const r = skillc(['lint', '--fix', '-f', 'json', 'fixme'], dir);
    expect(r.code).toBe(0);
    const results = json(r);
    expect(validateResults(results), JSON.stringify(validateResults.errors)).toBe(true);
    expect(results).toEqual([{ filePath: 'fixme/SKILL.md', messages: [], errorCount: 0, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0, output: expected }]);
  });
});

describe('--output-file', () => {
  it('writes the report to the file instead of stdout, the same bytes', () => {
    const toStdout = skillc(['lint', '-f', 'json', 'broken'], root);
    const r = skillc(['lint', '-f', 'json', '-o', 'out/../report.json', 'broken'], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(fs.readFileSync(path.join(root, 'report.json'), 'utf8')).toBe(toStdout.stdout);
    const stylish = skillc(['lint', '-o', 'report.txt', 'broken'], root);
    expect(stylish.stdout).toBe('');
    expect(fs.readFileSync(path.join(root, 'report.txt'), 'utf8')).toBe(skillc(['lint', 'broken'], root).stdout);
  });
});

describe('configuration', () => {
  it('discovers .skillc-lint.json from the working directory: a rule off, a rule raised to error', () => {
    const off = path.join(root, 'cfg-off');
    writeTree(off, { '.skillc-lint.json': JSON.stringify({ rules: { 'link-resolves': 'off' } }), 'broken/SKILL.md': skill('broken', { body: 'See [the notes](missing.md).\n' }) });
    expect(skillc(['lint', 'broken'], off)).toMatchObject({ code: 0, stdout: '' });
    // From a folder below it too (the nearest file upwards).
    expect(skillc(['lint', '.'], path.join(off, 'broken')).code).toBe(0);
    // And without the file the same skill fails.
    fs.rmSync(path.join(off, '.skillc-lint.json'));
    expect(skillc(['lint', 'broken'], off).code).toBe(1);

    const raise = path.join(root, 'cfg-error');
    writeTree(raise, { '.skillc-lint.json': JSON.stringify({ rules: { 'unknown-fields': ['error'] } }), 'warny/SKILL.md': skill('warny', { fm: 'version: 2\n' }) });
    const r = skillc(['lint', 'warny'], raise);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('warny/SKILL.md:4:1  error  unknown frontmatter field');
  });

  it('a discovered config that is invalid is exit 2', () => {
    const bad = path.join(root, 'cfg-bad');
    writeTree(bad, { '.skillc-lint.json': '{"rules": {"link-depth": "warning"}}', 'clean/SKILL.md': skill('clean') });
    const r = skillc(['lint', 'clean'], bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(path.join(bad, '.skillc-lint.json'));
  });

  it('--strict turns an unknown field into an error', () => {
    const r = skillc(['lint', '--strict', 'warny'], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('warny/SKILL.md:4:1  error  unknown frontmatter field');
    // The config can still set the level under --strict.
    const dir = path.join(root, 'cfg-strict');
    writeTree(dir, { '.skillc-lint.json': JSON.stringify({ rules: { 'unknown-fields': 'warn' } }), 'warny/SKILL.md': skill('warny', { fm: 'version: 2\n' }) });
    expect(skillc(['lint', '--strict', 'warny'], dir).code).toBe(0);
  });
});

describe('json', () => {
  it('validates against schemas/lint-results.schema.json, scripts and fixes included', () => {
    const dir = path.join(root, 'json');
    writeTree(dir, {
      'a/SKILL.md': skill('a', { fm: 'metadata:\n  version: 1.0\n', body: '<!-- skillc-disable-next-line no-such-rule -->\nSee [x](missing.md) and [y](deep/er/y.md).\n' }),
      'a/scripts/clean.sh': '#!/bin/sh\nrm -rf "$OUT"\n',
      'b/SKILL.md': skill('b'),
    });
    const r = skillc(['lint', '-f', 'json', '.'], dir);
    expect(r.code).toBe(1);
    const results = json(r);
    expect(validateResults(results), JSON.stringify(validateResults.errors)).toBe(true);
    expect(results.map((f) => f.filePath)).toEqual(['a/SKILL.md', 'a/scripts/clean.sh', 'b/SKILL.md']);
    const rules = results.flatMap((f) => f.messages.map((m) => `${f.filePath}:${m.line} ${m.ruleId} ${m.severity}`));
    expect(rules).toEqual([
      'a/SKILL.md:5 metadata-string-map 1',
      'a/SKILL.md:10 lint/unknown-rule 1',
      'a/SKILL.md:11 link-resolves 2',
      'a/SKILL.md:11 link-depth 1',
      'a/SKILL.md:11 link-resolves 2',
      'a/scripts/clean.sh:2 undeclared-risk 1',
    ]);
    expect(results[0]).toMatchObject({ errorCount: 2, warningCount: 3, fixableErrorCount: 0, fixableWarningCount: 1 });
  });
});

interface SarifLog {
  $schema: string;
  version: string;
  runs: {
    tool: { driver: { name: string; rules: { id: string }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number } } }[];
      partialFingerprints: { primaryLocationLineHash: string };
    }[];
  }[];
}

describe('sarif', () => {
  const dir = path.join(root, 'sarif');
  const body = '<!-- skillc-disable-next-line no-such-rule -->\nSee [x](missing.md).\n\nSee [y](deep/er/y.md).\n';
  writeTree(dir, {
    'skills/s/SKILL.md': skill('s', { fm: 'version: 2\n', body }),
    'skills/s/scripts/clean.sh': '#!/bin/sh\nrm -rf "$OUT"\n',
    'skills/t/SKILL.md': skill('t'),
  });
  const sarif = (cwd = dir, args: string[] = [path.join(dir, 'skills')]) => {
    const r = skillc(['lint', '-f', 'sarif', ...args], cwd);
    expect(r.code, r.stderr).toBe(1);
    return { text: r.stdout, log: JSON.parse(r.stdout) as SarifLog };
  };

  it('is SARIF 2.1.0 with one run whose driver lists every rule', () => {
    const { log } = sarif();
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.runs).toHaveLength(1);
    const driver = log.runs[0]!.tool.driver;
    expect(driver.name).toBe('skillc');
    const ids = driver.rules.map((r) => r.id);
    for (const r of LINT_RULES) expect(ids).toContain(r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('points each result at its rule, a relative uri and a 1-based region', () => {
    const { log } = sarif();
    const run0 = log.runs[0]!;
    const ids = run0.tool.driver.rules.map((r) => r.id);
    expect(run0.results.map((r) => r.ruleId).sort()).toEqual(['link-depth', 'link-resolves', 'link-resolves', 'lint/unknown-rule', 'undeclared-risk', 'unknown-fields']);
    for (const res of run0.results) {
      expect(ids).toContain(res.ruleId);
      expect(ids[res.ruleIndex]).toBe(res.ruleId);
      expect(['error', 'warning']).toContain(res.level);
      expect(res.locations).toHaveLength(1);
      const loc = res.locations[0]!.physicalLocation;
      expect(loc.artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(loc.artifactLocation.uri).toMatch(/^skills\/[st]\/(SKILL\.md|scripts\/clean\.sh)$/);
      expect(loc.artifactLocation.uri).not.toContain(root);
      expect(loc.region.startLine).toBeGreaterThanOrEqual(1);
      expect(loc.region.startColumn).toBeGreaterThanOrEqual(1);
      expect(res.partialFingerprints.primaryLocationLineHash).toMatch(/^[0-9a-f]{16}:\d+$/);
    }
    expect(run0.results.filter((r) => r.ruleId === 'link-resolves').every((r) => r.level === 'error')).toBe(true);
    expect(run0.results.filter((r) => r.ruleId === 'link-depth').every((r) => r.level === 'warning')).toBe(true);
  });

  it('keeps fingerprints when an unrelated line is inserted above, while line numbers move', () => {
    const before = sarif().log.runs[0]!.results;
    const file = path.join(dir, 'skills', 's', 'SKILL.md');
    const original = fs.readFileSync(file, 'utf8');
    try {
      fs.writeFileSync(file, original.replace('# s\n', '# s\n\nAn unrelated paragraph.\n'));
      const after = sarif().log.runs[0]!.results;
      const key = (r: (typeof before)[number]) => `${r.ruleId} ${r.locations[0]!.physicalLocation.artifactLocation.uri} ${r.partialFingerprints.primaryLocationLineHash}`;
      expect(after.map(key)).toEqual(before.map(key));
      const line = (rs: typeof before, id: string) => rs.find((r) => r.ruleId === id)!.locations[0]!.physicalLocation.region.startLine;
      expect(line(after, 'link-depth')).toBe(line(before, 'link-depth') + 2);
      expect(line(after, 'link-resolves')).toBe(line(before, 'link-resolves') + 2);
      // Fingerprints of the two link-resolves results differ (different lines of text).
      const fps = after.filter((r) => r.ruleId === 'link-resolves').map((r) => r.partialFingerprints.primaryLocationLineHash);
      expect(new Set(fps).size).toBe(2);
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  it('percent-encodes each path segment, so # % and spaces in a folder name stay part of the path', () => {
    const enc = path.join(root, 'sarif-enc');
    writeTree(enc, { 'odd name #1%/SKILL.md': skill('odd') });
    const r = skillc(['lint', '-f', 'sarif', '.'], enc);
    const results = (JSON.parse(r.stdout) as SarifLog).runs[0]!.results;
    expect(results.map((x) => x.ruleId)).toEqual(['name-matches-folder']);
    const uri = results[0]!.locations[0]!.physicalLocation.artifactLocation.uri;
    expect(uri).toBe('odd%20name%20%231%25/SKILL.md');
    const resolved = new URL(uri, 'file:///src/');
    expect([resolved.hash, resolved.search, decodeURIComponent(resolved.pathname)]).toEqual(['', '', '/src/odd name #1%/SKILL.md']);
  });

  it('names SKILL.md alone when run inside the skill without paths', () => {
    const r = skillc(['lint', '-f', 'sarif'], path.join(dir, 'skills', 's'));
    const uris = new Set((JSON.parse(r.stdout) as SarifLog).runs[0]!.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri));
    expect([...uris].sort()).toEqual(['SKILL.md', 'scripts/clean.sh']);
    expect(skillc(['lint'], path.join(dir, 'skills', 's')).stdout).toMatch(/^SKILL\.md:4:1 {2}warning {2}unknown frontmatter field/);
  });

  it('defines %SRCROOT% as the working folder, so every result resolves to its file from anywhere (issue 24 item 6)', () => {
    const { log } = sarif(dir, ['skills']);
    const run0 = log.runs[0]! as SarifLog['runs'][number] & { originalUriBaseIds: Record<string, { uri: string }> };
    const base = run0.originalUriBaseIds['%SRCROOT%']!.uri;
    expect(base).toBe(`${pathToFileURL(dir).href}/`);
    for (const res of run0.results) {
      const file = fileURLToPath(new URL(res.locations[0]!.physicalLocation.artifactLocation.uri, base));
      expect(fs.existsSync(file), file).toBe(true);
    }
    // Run from the skill folder: other relative paths, the same files.
    const inner = sarif(path.join(dir, 'skills', 's'), ['.', '../t']).log.runs[0]! as typeof run0;
    const files = (r: typeof run0) => r.results.map((x) => fileURLToPath(new URL(x.locations[0]!.physicalLocation.artifactLocation.uri, r.originalUriBaseIds['%SRCROOT%']!.uri))).sort();
    expect(files(inner)).toEqual(files(run0));
  });

  it('validates against the SARIF 2.1.0 JSON schema', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
    const validate = new AjvDraft04({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false }).compile(schema);
    const { log } = sarif();
    expect(validate(log), JSON.stringify(validate.errors, null, 1)).toBe(true);
    // The check can fail: a result without its message is not SARIF.
    const broken = structuredClone(log) as unknown as { runs: { results: Record<string, unknown>[] }[] };
    delete broken.runs[0]!.results[0]!.message;
    expect(validate(broken)).toBe(false);
  });

  it('does not depend on the way the paths are given', () => {
    const fromDir = sarif(dir, ['skills']).text;
    expect(sarif(dir, [path.join(dir, 'skills', 't'), path.join(dir, 'skills', 's', 'SKILL.md')]).text).toBe(fromDir);
  });
});

describe('determinism', () => {
  it('gives byte-identical output for the same input, in every format', () => {
    const dir = path.join(root, 'sarif');
    for (const format of ['stylish', 'json', 'sarif']) {
      const a = skillc(['lint', '-f', format, 'skills'], dir);
      const b = skillc(['lint', '-f', format, 'skills'], dir);
      expect(a.stdout.length, format).toBeGreaterThan(100);
      expect(b.stdout, format).toBe(a.stdout);
    }
  });
});

describe('many skills', () => {
  it('uses worker threads with -j 2 and gives the same json as -j 1', () => {
    const lib = path.join(root, 'big');
    const files: Record<string, string> = {};
    for (let i = 0; i < 64; i++) {
      const name = `skill-${String(i).padStart(2, '0')}`;
      files[`${name}/SKILL.md`] = skill(name, {
        ...(i % 7 === 0 ? { fm: 'version: 2\n' } : {}),
        body: i % 5 === 0 ? `See [notes](notes-${i}.md).\n` : `Step ${i}: do the thing.\n`,
      });
    }
    writeTree(lib, files);
    const log = path.join(root, 'workers.log');
    const preload = path.join(root, 'count-workers.cjs');
    fs.writeFileSync(preload, "const { isMainThread, threadId } = require('node:worker_threads');\nif (!isMainThread) require('node:fs').appendFileSync(process.env.SKILLC_TEST_WORKER_LOG, `worker ${threadId}\\n`);\n");
    const env = { SKILLC_TEST_WORKER_LOG: log, NODE_OPTIONS: `--require ${preload}` };
    const workers = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0);

    const one = run(['lint', '-f', 'json', '-j', '1', 'big'], root, env);
    expect(workers()).toBe(0);
    const two = run(['lint', '-f', 'json', '-j', '2', 'big'], root, env);
    expect(workers()).toBe(2);
    expect(one.code, one.stderr).toBe(1);
    expect(two.code, two.stderr).toBe(1);
    expect(two.stdout).toBe(one.stdout);
    const results = json(one);
    expect(results).toHaveLength(64);
    expect(results.reduce((n, r) => n + r.errorCount, 0)).toBe(13);
    expect(results.reduce((n, r) => n + r.warningCount, 0)).toBe(10);
  });
});
