#!/usr/bin/env node
// Thin launcher: the CLI is compiled TypeScript (tsc → build/src), bundled by rolldown into
// build/bundle (see rolldown.config.js); npm's `prepare` runs both.
import { main } from '../build/bundle/main.js';

// A closed pipe (`skillc … | head`) is not an error of ours: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`skillc: internal error: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 2;
  },
);
