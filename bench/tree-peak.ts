/**
 * Runs a command and prints its wall seconds and the peak resident memory of its whole process
 * tree (the command and every process it starts, summed at each moment), sampled from /proc every
 * 20 ms. /usr/bin/time's maximum RSS is one process's: with the parse in child processes it would
 * leave their memory out. Pages the processes share (Node's code, mapped files) count once per
 * process, so the sum is an upper bound of what the tree holds. Linux only (the bench machine).
 *
 *   node build/bench/tree-peak.js <command> [args…]   → prints "<secs> <peak KB>"
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node build/bench/tree-peak.js <command> [args…]');
  process.exit(2);
}

/** The pid and all its descendants. */
function tree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      try {
        for (const c of fs.readFileSync(`/proc/${out[i]}/task/${t}/children`, 'utf8').trim().split(/\s+/)) if (c) out.push(Number(c));
      } catch {
        // The task ended.
      }
    }
  }
  return out;
}

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

const started = process.hrtime.bigint();
const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'ignore'] });
let peak = 0;
const sample = () => {
  if (child.pid === undefined) return;
  peak = Math.max(peak, tree(child.pid).reduce((sum, p) => sum + rssKb(p), 0));
};
const timer = setInterval(sample, 20);
child.on('exit', (code) => {
  clearInterval(timer);
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`${secs.toFixed(2)} ${peak}`);
  process.exitCode = code ?? 1;
});
