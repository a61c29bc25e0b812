/**
 * Statements (issue 19 items 4 and 6): what kind of statement a line is, and which templates and
 * contracts the verifier's form gate refuses as procedures nobody would keep.
 */
import { describe, expect, it } from 'vitest';
import { commentSlots, headingLike, oneProgramCommand, statementOf, subcommandSlot, unkeptForm } from '../../src/extract/statement.js';
import { actionLines, messageLike, tokenizeCode, tokenizeLine, type ActionLine } from '../../src/extract/action-lines.js';
import type { Unit } from '../../src/ir/types.js';
import type { ActionTemplate } from '../../src/ir/types.js';

function line(source: ActionLine['source'], text: string, shell = false) {
  const { tokens } = source === 'code' && !shell ? tokenizeCode(text) : tokenizeLine(text);
  return { source, shell, text, tokens };
}

function tpl(template: string, source: ActionTemplate['source'] = 'code', instances: ActionTemplate['instances'] = []): ActionTemplate {
  return { template, slots: [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!), source, instances };
}

const inst = (unit: string, text: string, bindings: Record<string, string>) => ({ unit, line: 1, text, bindings });

describe('statementOf', () => {
  it('tells commands, calls, assignments, imports, control flow and markup apart', () => {
    expect(statementOf(line('code', 'pip install pandas', true))).toEqual({ kind: 'command', head: 'pip' });
    expect(statementOf(line('code', '.venv/bin/python run.py', true)).kind).toBe('command');
    expect(statementOf(line('code', 'client.files.create(name="x")'))).toEqual({ kind: 'call', head: 'client.files.create' });
    expect(statementOf(line('code', 'mol = Chem.MolFromSmiles(s)')).kind).toBe('assignment');
    expect(statementOf(line('code', 'export TOKEN=abc', true)).kind).toBe('assignment');
    expect(statementOf(line('code', 'from zarr import open_group')).kind).toBe('import');
    expect(statementOf(line('code', 'import numpy as np')).kind).toBe('import');
    expect(statementOf(line('code', 'for i in range(3):')).kind).toBe('control');
    expect(statementOf(line('code', '</div>')).kind).toBe('markup');
    expect(statementOf(line('code', 'name: my-skill')).kind).toBe('assignment');
  });

  it('reads numbered steps as actions, and title-case phrases as headings', () => {
    expect(statementOf(line('step', 'Run the tests before you commit'))).toEqual({ kind: 'action', head: 'run' });
    expect(statementOf(line('step', 'Security Audit')).kind).toBe('heading');
    expect(statementOf(line('step', 'Component diagram:')).kind).toBe('heading');
  });

  it('headingLike: a colon at the end, or every word capitalised without a full stop', () => {
    expect(headingLike('Security Audit')).toBe(true);
    expect(headingLike('Next steps:')).toBe(true);
    expect(headingLike('Open the file.')).toBe(false);
    expect(headingLike('Open the file')).toBe(false);
  });
});

describe('unkeptForm (one template)', () => {
  it('refuses imports, assignments, control fragments, markup, heading-like phrases and file paths', () => {
    expect(unkeptForm('from zarr import {name}', 'code')).toMatch(/import/);
    expect(unkeptForm('mol = {value}', 'code')).toMatch(/assignment/);
    expect(unkeptForm('if {condition}:', 'code')).toMatch(/control-flow/);
    expect(unkeptForm('<{element}>', 'code')).toMatch(/markup/);
    expect(unkeptForm('Security Audit {name}', 'step')).toMatch(/heading-like/);
    expect(unkeptForm('rules/{name}.md', 'code')).toMatch(/file path/);
  });

  it('refuses a step that points at text around it', () => {
    expect(unkeptForm('Install the skill using the command above', 'step')).toMatch(/points at text around it/);
    expect(unkeptForm('Run the script shown below with {name}', 'step')).toMatch(/points at text around it/);
    expect(unkeptForm('Heat {object} above 100 degrees', 'step')).toBeNull();
  });

  it('keeps commands, calls, scripts and actions', () => {
    expect(unkeptForm('pip install {package}', 'code')).toBeNull();
    expect(unkeptForm('./scripts/setup.sh {target}', 'code')).toBeNull();
    expect(unkeptForm('client.create({name})', 'code')).toBeNull();
    expect(unkeptForm('go to {receptacle}', 'inline')).toBeNull();
    expect(unkeptForm('Run the linter on {path}', 'step')).toBeNull();
  });
});

describe('oneProgramCommand (the whole contract)', () => {
  const section = (...ts: ActionTemplate[]) => ({ id: 'some-contract', scope: 'section' as const, templates: ts });
  const action = (...ts: ActionTemplate[]) => ({ id: 'some-contract', scope: 'action' as const, templates: ts });

  it('refuses one short command of one program: the invoke would be no shorter', () => {
    expect(oneProgramCommand(section(tpl('git checkout {branch}')))).toMatch(/one short command of `git`/);
    expect(oneProgramCommand(section(tpl('pip install {package}'), tpl('pip install {package} {extra}')))).toMatch(/`pip install`/);
    expect(oneProgramCommand(action(tpl('kill -9 {pid}', 'inline')))).toMatch(/`kill`/);
    expect(oneProgramCommand(action(tpl('cd {directory}')))).toMatch(/`cd`/);
  });

  it('keeps a longer command, whose constant flags the contract holds', () => {
    expect(oneProgramCommand(section(tpl('pip install --upgrade --quiet {package}')))).toBeNull();
    expect(oneProgramCommand(section(tpl('curl -fsSL {url} | sh')))).toBeNull();
  });

  it('refuses one command whose invoke is no shorter than its source lines', () => {
    const t = tpl('pip install torch numpy {package}', 'code', [inst('a#1', 'pip install torch numpy', { package: '' }), inst('b#1', 'pip install torch numpy scipy', { package: 'scipy' })]);
    expect(oneProgramCommand(section(t))).toMatch(/invoke is no shorter than the line it stands for in 2 of its 2 source units/);
    const long = tpl('ffprobe -v error -show_entries {entries} -of default=noprint_wrappers=1:nokey=1 {input}', 'code', [
      inst('a#1', 'ffprobe -v error -show_entries format=duration -of default=noprint_wrappers=1:nokey=1 in.mp4', { entries: 'format=duration', input: 'in.mp4' }),
      inst('b#1', 'ffprobe -v error -show_entries stream=width -of default=noprint_wrappers=1:nokey=1 b.mkv', { entries: 'stream=width', input: 'b.mkv' }),
    ]);
    expect(oneProgramCommand(section(long))).toBeNull();
  });

  it('keeps several steps, even of one program', () => {
    expect(oneProgramCommand(section(tpl('git add {path}'), tpl('git commit -m {message}')))).toBeNull();
  });

  it("keeps the domain's own actions: no flag, path or program name in sight", () => {
    expect(oneProgramCommand(action(tpl('go to {receptacle}', 'inline')))).toBeNull();
    expect(oneProgramCommand(action(tpl('put {object} in/on {receptacle}', 'inline')))).toBeNull();
    expect(oneProgramCommand(section(tpl('take {object} from {source}')))).toBeNull();
  });
});

describe('subcommandSlot', () => {
  const az = 'az boards iteration team {name} --team {{team-name}} --project {{project}}';
  it('refuses a slot that stands for different operations of one program', () => {
    const t = tpl(az, 'code', [inst('a#1', 'az boards iteration team set-default-iteration --team {team-name} --project {project}', { name: 'set-default-iteration' }), inst('a#2', 'az boards iteration team set-backlog-iteration --team {team-name} --project {project}', { name: 'set-backlog-iteration' })]);
    expect(subcommandSlot({ templates: [t] })).toMatch(/^its slot \{name\} takes the place of a subcommand of `az boards iteration team` \(`set-default-iteration`, `set-backlog-iteration`\)/);
  });

  it('keeps arguments: values that are not operations, or a slot after a flag', () => {
    const pkg = tpl('pip install {package}', 'code', [inst('a#1', 'pip install numpy', { package: 'numpy' }), inst('b#1', 'pip install scikit-learn', { package: 'scikit-learn' })]);
    expect(subcommandSlot({ templates: [pkg] })).toBeNull();
    const flag = tpl('tool --mode {mode}', 'code', [inst('a#1', 'tool --mode create-index', { mode: 'create-index' }), inst('b#1', 'tool --mode delete-index', { mode: 'delete-index' })]);
    expect(subcommandSlot({ templates: [flag] })).toBeNull();
  });

  it('reads a line that ends in an author\'s placeholder as a command, not as a block brace', () => {
    expect(statementOf(line('code', 'az boards iteration team show --team {team-name} --project {project}')).kind).toBe('command');
    expect(statementOf(line('code', 'function main() {')).kind).not.toBe('command');
  });
});

describe('messages, diagrams and remarks are not procedures (an unseen library: table cells, translated docs)', () => {
  it('leaves out a table cell that reads as a message; keeps commands, written with a capital or not', () => {
    const unit = {
      id: 'x#1', line: 10,
      text: '| Error | Fix |\n|---|---|\n| `Token expired` | Run `atris login` |\n| `401 Unauthorized` | `Rscript renew.R --force` |\n\nSee `Deploy web to prod` in prose.',
      inlineCode: [
        { value: 'Token expired', line: 12 }, { value: 'atris login', line: 12 },
        { value: '401 Unauthorized', line: 13 }, { value: 'Rscript renew.R --force', line: 13 },
        { value: 'Deploy web to prod', line: 15 },
      ],
      codeBlocks: [], bullets: [],
    } as unknown as Unit;
    expect(actionLines(unit).map((l) => l.text)).toEqual(['atris login', 'Rscript renew.R --force', 'Deploy web to prod']);
    expect(['Token expired', '401 Unauthorized', 'Invalid grant'].every(messageLike)).toBe(true);
    for (const c of ['Rscript analysis.R', '7z x archive.7z', '2to3 -w file.py', 'PowerShell -File x.ps1', 'SELECT * FROM users', 'atris login']) expect(messageLike(c), c).toBe(false);
    expect(unkeptForm('Deploy {service} to {env}', 'inline')).toBeNull();
  });

  it('reads a line whose second token is an arrow as a diagram', () => {
    expect(statementOf(line('code', 'RED     → Önce başarısız bir test yaz')).kind).toBe('markup');
    expect(statementOf(line('code', 'GREEN -> write the least code that passes')).kind).toBe('markup');
    expect(unkeptForm('RED {value} write a failing test', 'code')).toBeNull();
    expect(unkeptForm('RED → write a failing {name}', 'code')).toMatch(/markup/);
  });

  it('refuses a contract whose every slot is in a code comment', () => {
    const cpp = tpl('int Add(int a, int b); // {text}');
    expect(commentSlots({ templates: [cpp, tpl('EXPECT_EQ(Add(2, 3), 5);')] })).toMatch(/only in code comments/);
    expect(commentSlots({ templates: [tpl('atris plan # break down {name} task')] })).toMatch(/only in code comments/);
    // A slot the code takes, with or without a comment after it.
    expect(commentSlots({ templates: [tpl('curl -s {url} # fetch the page')] })).toBeNull();
    expect(commentSlots({ templates: [cpp, tpl('add({a}, {b})')] })).toBeNull();
    // `#` inside a word or a URL starts no comment.
    expect(commentSlots({ templates: [tpl('git checkout {branch}#L10')] })).toBeNull();
    expect(commentSlots({ templates: [tpl('open http://{host}/x')] })).toBeNull();
    expect(commentSlots({ templates: [tpl('gh issue close #{number}')] })).toBeNull();
    expect(commentSlots({ templates: [tpl('git commit -m "Closes #{issue}"')] })).toBeNull();
  });

  it('keeps a word of any script one code token', () => {
    expect(tokenizeCode('GREEN → Testi geçirmek için').tokens).toEqual(['GREEN', '→', 'Testi', 'geçirmek', 'için']);
    expect(tokenizeCode('取得特定市場(x)').tokens).toEqual(['取得特定市場', '(', 'x', ')']);
  });
});
