/**
 * Bundles the compiled CLI (build/src, from tsc) into build/bundle/, which bin/skillc.js runs.
 *
 * Why: a cold `skillc lint` of one skill spent about 130 ms of its ~300 ms resolving, reading and
 * compiling some 250 small ES modules (micromark, mdast, yaml, ajv…) one by one; as a few
 * chunks the same code loads in about 45 ms. Each command's code stays behind its dynamic
 * import, so `--help` still loads only commander.
 *
 * Kept external (loaded from node_modules at run time): packages that find files next to
 * themselves (web-tree-sitter's .wasm, the tree-sitter grammars, oxc-parser's native binding),
 * big packages loaded only on some paths, where bundling buys nothing (ts-morph, openai), and
 * gpt-tokenizer, of which only the pre-tokenizer regex and the rank file are read.
 *
 * The build also writes o200k_base.ranks, the token counter's table as one binary file, so a
 * process reads it instead of decoding gpt-tokenizer's 200,000-line rank file (src/text/o200k.ts),
 * and schema-validators/, the schemas' validators compiled, one module per schema (src/schema/standalone.ts).
 *
 * The worker entries keep their names: code finds them with `new URL('./x-worker.js',
 * import.meta.url)`, which resolves inside build/bundle/ once bundled, as inside build/src/ before.
 */
import { defineConfig } from 'rolldown';
import { PREBUILT_RANK_TABLE, encodeRankTable, readO200kRankFile } from './build/src/text/o200k.js';
import { validatorsModules } from './build/src/schema/standalone.js';
import { PRECOMPILED_DIR } from './build/src/schema/validate.js';

/** Writes the o200k token table as one binary file beside the bundle (see src/text/o200k.ts). */
const rankTable = {
  name: 'skillc-o200k-rank-table',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: PREBUILT_RANK_TABLE, source: encodeRankTable(readO200kRankFile()) });
  },
};

/** Writes the schemas' validators, compiled, beside the bundle (see src/schema/standalone.ts). */
const schemaValidators = {
  name: 'skillc-schema-validators',
  generateBundle() {
    for (const { name, text } of validatorsModules()) this.emitFile({ type: 'asset', fileName: `${PRECOMPILED_DIR}/${name}.cjs`, source: text });
  },
};

const EXTERNAL_PACKAGES = [
  'ts-morph',
  'oxc-parser',
  'web-tree-sitter',
  'tree-sitter-bash',
  'tree-sitter-python',
  'openai',
  'gpt-tokenizer',
];

export default defineConfig({
  input: {
    main: 'build/src/cli/main.js',
    'lint-worker': 'build/src/lint/lint-worker.js',
    'parse-worker': 'build/src/passes/parse-worker.js',
    'text-facts-worker': 'build/src/emit/text-facts-worker.js',
    'dist-folders-worker': 'build/src/emit/dist-folders-worker.js',
    'ts-worker': 'build/src/typed/ts-worker.js',
  },
  platform: 'node',
  plugins: [rankTable, schemaValidators],
  external: (id) => EXTERNAL_PACKAGES.some((name) => id === name || id.startsWith(`${name}/`)),
  output: {
    dir: 'build/bundle',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    sourcemap: true,
    cleanDir: true,
  },
});
