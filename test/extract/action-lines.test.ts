import { describe, expect, it } from 'vitest';
import { actionLineTexts, actionLines } from '../../src/extract/action-lines.js';
import type { Unit } from '../../src/ir/types.js';
import { parentOf } from '../helpers/skill.js';

/** The code-block reading as it was before its prefilters ('$'/'>' before the prompt strip, '<' before the tag strip). */
function referenceCodeLines(unit: Unit): { text: string; line: number; shell: boolean }[] {
  const out: { text: string; line: number; shell: boolean }[] = [];
  const push = (text: string, line: number, shell: boolean) => {
    const t = text.replace(/\s+/g, ' ').trim();
    if (t.length < 2 || t.length > 240 || !/[A-Za-z0-9_]{2}/.test(t.replace(/<\/?[\w.-]+>/g, ''))) return;
    out.push({ text: t, line, shell });
  };
  for (const block of unit.codeBlocks) {
    const shell = ['bash', 'sh'].includes((block.lang ?? '').toLowerCase());
    let pending = '';
    let pendingLine = 0;
    let kept = 0;
    block.value.split('\n').forEach((raw, i) => {
      if (kept >= 40) return;
      let l = raw.replace(/^\s*(\$|>|PS>|#>)\s+/, '').trimEnd();
      if (/^\s*(#|\/\/|--)/.test(l) && !pending) return;
      if (!pending) pendingLine = block.line + 1 + i;
      if (l.endsWith('\\')) {
        pending += l.slice(0, -1) + ' ';
        return;
      }
      l = pending + l;
      pending = '';
      if (l.trim()) {
        push(l, pendingLine, shell);
        kept++;
      }
    });
    if (pending.trim()) push(pending, pendingLine, shell);
  }
  return out;
}

function unitWith(blocks: { lang: string; value: string }[]): Unit {
  return {
    id: 'u1', heading: null, depth: 0, start: 0, end: 0, line: 1, text: '',
    codeBlocks: blocks.map((b, k) => ({ lang: b.lang, value: b.value, line: 10 * k + 1, start: 0, end: 0 })),
    inlineCode: [], links: [], bullets: [],
  } as unknown as Unit;
}

describe('action lines of code blocks', () => {
  it('are the lines the unfiltered reading gives, on generated blocks', () => {
    const pieces = ['$ ', '> ', 'PS> ', '#> ', '# ', '// ', '-- ', 'npm install', ' pandas', '<b>', '</plugin>', '<x', '\\', '  ', '\t', 'x', 'echo $HOME', 'a > b', '\n', '\n', '});', '$x', '>>'];
    let seed = 11;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let n = 0; n < 3000; n++) {
      const blocks = Array.from({ length: 1 + Math.floor(next() * 2) }, () => ({
        lang: ['bash', 'python', ''][Math.floor(next() * 3)]!,
        value: Array.from({ length: Math.floor(next() * 60) }, () => pieces[Math.floor(next() * pieces.length)]).join(''),
      }));
      const unit = unitWith(blocks);
      const got = actionLineTexts(unit).map((l) => ({ text: l.text, line: l.line, shell: l.shell }));
      expect(got).toEqual(referenceCodeLines(unit));
      expect(actionLines(unit).map((l) => l.text)).toEqual(got.map((l) => l.text));
    }
  });
});

/** The action lines (source and text) of the one section of a skill with this body. */
function linesOfBody(body: string): string[] {
  const parent = parentOf('s', `---\nname: s\ndescription: d\n---\n# S\n\n## Steps\n\n${body}\n`);
  const unit = parent.units.find((u) => u.heading === 'Steps')!;
  return actionLineTexts(unit).map((l) => `${l.source}: ${l.text}`);
}

describe('action lines under words that forbid', () => {
  it('drop a command the clause forbids', () => {
    expect(linesOfBody('- Never run `ordercli reorder a1 --confirm` unless asked.')).toEqual([]);
    expect(linesOfBody('- Use `npm ci` instead of `npm install`.')).toEqual(['inline: npm ci']);
  });

  it('keep a command a reminder asks for', () => {
    expect(linesOfBody("- Don't forget to run `npm run build` first.")).toEqual(['inline: npm run build']);
    expect(linesOfBody('- Do not hesitate to run `git status`.')).toEqual(['inline: git status']);
    expect(linesOfBody('- Never skip this step - run `make check`.')).toEqual(['inline: make check']);
    expect(linesOfBody("- Don't worry — just run `npm ci`.")).toEqual(['inline: npm ci']);
    expect(linesOfBody('- Never trust a stale cache - run `make clean` first.')).toEqual(['inline: make clean']);
    expect(linesOfBody("1. Don't forget to commit the lockfile")).toEqual(["step: Don't forget to commit the lockfile"]);
  });

  it('drop a command the clause forbids through a dash, an aside, a list or a means', () => {
    expect(linesOfBody('- Never use destructive commands - `git reset --hard` wipes your work.')).toEqual([]);
    expect(linesOfBody('- Do not — under any circumstances — run `git push --force origin main`.')).toEqual([]);
    expect(linesOfBody('- Never use destructive commands — `git reset --hard`, `git clean -fdx`.')).toEqual([]);
    expect(linesOfBody('- Never skip hooks with `git commit --no-verify`.')).toEqual([]);
    expect(linesOfBody("- Don't skip the lockfile check by running `npm install --no-package-lock`.")).toEqual([]);
    expect(linesOfBody("- Don't forget to run the tests with `npm test`.")).toEqual(['inline: npm test']);
    expect(linesOfBody('1. Never skip hooks with --no-verify')).toEqual([]);
  });

  it('keep a command a condition or a purpose introduces, and one a reminder asks for', () => {
    expect(linesOfBody('- If you do not have Docker installed: `brew install --cask docker`.')).toEqual(['inline: brew install --cask docker']);
    expect(linesOfBody('- To avoid permission errors: `npm config set prefix ~/.npm-global`')).toEqual(['inline: npm config set prefix ~/.npm-global']);
    expect(linesOfBody("- To upgrade without downtime (don't stop the server): `pm2 reload all`")).toEqual(['inline: pm2 reload all']);
    expect(linesOfBody('- Never use these commands: `git reset --hard`')).toEqual([]);
    expect(linesOfBody('- Restart it (do not stop the server) with `pm2 reload all`.')).toEqual(['inline: pm2 reload all']);
    // A condition or purpose that itself forbids, or an aside that forbids, still forbids.
    expect(linesOfBody('- To be safe do not run: `git reset --hard`')).toEqual([]);
    expect(linesOfBody('- Before merging never use: `git push --force`')).toEqual([]);
    expect(linesOfBody('- Dangerous (do not run in production): `npm run db:reset`')).toEqual([]);
    // A condition about the reader, or an aside that forbids something else, leaves the command.
    expect(linesOfBody("- If you don't use Docker: `npm install`")).toEqual(['inline: npm install']);
    expect(linesOfBody("- Install the CLI globally (don't use sudo): `npm install -g foo`")).toEqual(['inline: npm install -g foo']);
    expect(linesOfBody('- Run the tests (do not run them in parallel) with `npm test`.')).toEqual(['inline: npm test']);
    expect(linesOfBody("1. Don't fail to back up with `pg_dump mydb -f backup.sql` first.")).toEqual(['inline: pg_dump mydb -f backup.sql']);
    expect(linesOfBody('- Never neglect to run the suite with `npm test`.')).toEqual(['inline: npm test']);
    // Skipping with a means forbids the means, a gerund or not: when in doubt, the command goes.
    expect(linesOfBody("- Don't skip running migrations through `rails db:migrate`.")).toEqual([]);
    expect(linesOfBody('- Never skip linting with `git commit --no-verify`.')).toEqual([]);
    expect(linesOfBody("- Don't skip the tests: `npm test`.")).toEqual(['inline: npm test']);
    expect(linesOfBody("- Don't fail the build with `eslint --max-warnings 0`.")).toEqual([]);
  });

  it('read no forbidding word inside an earlier span', () => {
    expect(linesOfBody('- Start it with `docker run --pull never img` then `docker logs web`.')).toEqual(['inline: docker run --pull never img', 'inline: docker logs web']);
  });
});

describe('numbered steps around code', () => {
  it('are stated by a command they hold', () => {
    expect(linesOfBody('1. Search: `POST /x/search` with a query')).toEqual(['inline: POST /x/search']);
    for (const command of ['NODE_ENV=production npm run build', 'Rscript analysis.R', 'Install-Module PSReadLine -Scope CurrentUser', '$EDITOR notes.md']) {
      expect(linesOfBody(`1. Do it with \`${command}\``)).toEqual([`inline: ${command}`]);
    }
    expect(linesOfBody('1. Update it:\n   ```pwsh\n   Update-Module PSReadLine\n   ```')).toEqual(['code: Update-Module PSReadLine']);
    expect(linesOfBody('1. Run `Set-ExecutionPolicy RemoteSigned` in an elevated prompt.')).toEqual(['inline: Set-ExecutionPolicy RemoteSigned']);
    expect(linesOfBody('1. Open the `Built-In Tools` panel.')).toContain('step: Open the Built-In Tools panel.');
    // A capitalised name and its version, or a menu path, is no command: the step stays an action.
    for (const [name, step] of [['VS Code', 'Use VS Code to open the folder'], ['Xcode 15.2', 'Install Xcode 15.2 from the App Store'], ['File > Save As', 'Choose File > Save As and name it'], ['Python 3.11', 'Pick Python 3.11 as the interpreter'], ['Windows 10/11', 'Check Windows 10/11 first'], ['Preferences / Settings', 'Open Preferences / Settings now']] as const) {
      expect(linesOfBody(`1. ${step.replace(name, `\`${name}\``)}`)).toContain(`step: ${step}`);
    }
    expect(linesOfBody('1. Install it:\n   ```bash\n   npm install left-pad\n   ```\n2. Then run `npx left-pad x`')).toEqual(['code: npm install left-pad', 'inline: npx left-pad x']);
  });

  it('stay actions when they hold a value, not a command', () => {
    expect(linesOfBody('1. Write the config:\n   ```json\n   { "name": "mail sync" }\n   ```')).toEqual(['code: { "name": "mail sync" }', 'step: Write the config: { "name": "mail sync" }']);
    expect(linesOfBody('1. Set the name to `Mail Sync`')).toEqual(['inline: Mail Sync', 'step: Set the name to Mail Sync']);
    expect(linesOfBody('1. Press `⌘ K` to open the palette')).toEqual(['step: Press ⌘ K to open the palette']);
  });
});
