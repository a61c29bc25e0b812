/** Runs the compiled CLI (build/, made by `npm test` before vitest) as a user would. */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from './tmp.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'skillc.js');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A build not told which cache to use gets a fresh one of its own, so every test build starts cold
 * as it did before the build cache (and no test leaves a .skillc-cache in the repository).
 */
function withOwnCache(args: readonly string[]): readonly string[] {
  if (args[0] !== 'build' || args.some((a) => a === '--cache' || a === '--no-cache' || a.startsWith('--cache='))) return args;
  cacheRoot ??= fs.mkdtempSync(path.join(os.tmpdir(), 'skillc-cli-cache-'));
  return [...args, '--cache', path.join(cacheRoot, String(cacheRuns++))];
}

let cacheRoot: string | undefined;
let cacheRuns = 0;
// Per test file (each imports its own copy of this module); a worker's 'exit' event does not come
// when the test runner ends it, which left these folders behind.
afterAll(() => {
  if (cacheRoot) fs.rmSync(cacheRoot, { recursive: true, force: true });
  cacheRoot = undefined;
});

export function skillc(rawArgs: readonly string[], cwd = ROOT): CliResult {
  if (!fs.existsSync(path.join(ROOT, 'build', 'src', 'cli', 'main.js'))) {
    throw new Error('build/ is missing: run `npm test` (it compiles first) or `npm run build`');
  }
  const args = withOwnCache(rawArgs);
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function node(script: string, args: readonly string[]): CliResult {
  const r = spawnSync(process.execPath, [path.join(ROOT, script), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under dir as {relative path: bytes}, sorted. */
export function readTree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string, rel: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      if (fs.statSync(p).isDirectory()) walk(p, r);
      else out.set(r, fs.readFileSync(p));
    }
  };
  walk(dir, '');
  return out;
}

/**
 * Like `skillc`, without blocking the event loop: for tests whose CLI run talks to a server the
 * test itself runs (a loopback model server).
 */
export function skillcAsync(rawArgs: readonly string[], env: Readonly<Record<string, string>> = {}, cwd = ROOT): Promise<CliResult> {
  const args = withOwnCache(rawArgs);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', CI: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Whether permission tests can run here: as an ordinary user always; as root only if `nobody` can
 * run the CLI (its checkout must be readable by others, which a checkout under /root is not).
 */
export function canRunUnprivileged(): boolean {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return typeof process.getuid === 'function';
  const r = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8', uid: 65534, gid: 65534 });
  return r.status === 0;
}

/** The user and group `nobody` (65534), for runs that must not have root's way past permissions. */
const NOBODY = 65534;

/**
 * Runs the CLI so that file permissions apply: as is for an ordinary user, as `nobody` when the
 * tests run as root (root reads a mode-000 file, so an unreadable input cannot be made otherwise).
 * The files the run needs must then be readable (and the folders it writes writable) by others.
 */
export function skillcUnprivileged(args: readonly string[], cwd = ROOT): CliResult {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const r = spawnSync(process.execPath, [BIN, ...withOwnCache(args)], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1', HOME: cwd }, ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Builds the retrieval and cli-automation fixture libraries into a scratch folder (removed after
 * the test file) and returns their dist folders: the query and plan tests read both.
 */
export function buildQueryFixtures(prefix: string): { retrievalDist: string; cliDist: string } {
  const dir = scratchDir(prefix);
  const retrievalDist = path.join(dir, 'retrieval');
  const cliDist = path.join(dir, 'cli');
  for (const [lib, out] of [['test/fixtures/retrieval', retrievalDist], ['test/fixtures/cli-automation', cliDist]] as const) {
    const r = skillc(['build', lib, '-o', out, '-q']);
    if (r.code !== 0) throw new Error(`skillc build ${lib} exited ${r.code}: ${r.stderr}`);
  }
  return { retrievalDist, cliDist };
}
