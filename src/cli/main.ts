/**
 * The skillc command line. Only commander is loaded up front; each command's implementation (and
 * the markdown stack behind it) is imported when that command runs, so `--help` is instant.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { TOOL_VERSION } from '../version.js';

function wholeNumber(name: string, min: number) {
  return (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}`);
    return n;
  };
}

function positiveNumber(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a number > 0`);
    return n;
  };
}

function rate(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n <= 0 || n >= 1) throw new InvalidArgumentError(`${name} must be a rate between 0 and 1 (exclusive)`);
    return n;
  };
}

function port(name: string) {
  return (v: string): number => {
    const n = wholeNumber(name, 0)(v);
    if (n > 65535) throw new InvalidArgumentError(`${name} must be a port number, 0 to 65535`);
    return n;
  };
}

export function makeProgram(): Command {
  const program = new Command();
  program
    .name('skillc')
    .description('Offline compiler for agent skill libraries (folders of SKILL.md packages).')
    .version(TOOL_VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false })
    .exitOverride();

  program
    .command('build')
    .description('compile a skill library: verified contracts for recurring procedures, skills rewritten to invoke them where that pays and changes no meaning, a graph index')
    .argument('<library>', 'folder to compile; every folder below it holding a SKILL.md is a skill')
    .requiredOption('-o, --out <dir>', 'output folder (replaced on each build if skillc wrote it)')
    .option('--policy <file>', 'verifier policy JSON (default: rules/policy.json; schema: schemas/policy.schema.json)')
    .option('--strict', 'exit 1 when the build reported errors (default: exit 0 once the build completes)')
    .option('--force', 'replace the output folder even if it was not written by skillc')
    .option('--timings', 'record per-pass timings in report.json/report.md (makes the report differ between runs)')
    .addOption(new Option('--format <format>', 'how to print diagnostics: stylish to stderr, json to stdout').choices(['stylish', 'json']).default('stylish'))
    .option('--max-diagnostics <n>', 'print at most n diagnostics (0 = all; all are always in dist/diagnostics.json)', wholeNumber('--max-diagnostics', 0), 50)
    .option('--max-skill-bytes <n>', 'skip a SKILL.md larger than n bytes', wholeNumber('--max-skill-bytes', 1))
    .option('-j, --jobs <n>', 'parse processes (default: all cores, at most 8; output is the same for any n)', wholeNumber('--jobs', 1))
    .option('-q, --quiet', 'print errors only, and no summary')
    .option('--verbose', 'print info diagnostics too')
    .option('--no-progress', 'do not draw progress on the terminal')
    .addOption(new Option('--llm <provider>', 'model-assisted extraction, Binding Extraction and Rewrite Cleanup: none (offline, deterministic) or openai (any OpenAI-compatible server)').choices(['none', 'openai']).default('none'))
    .option('--llm-base-url <url>', 'OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (default: $OPENAI_BASE_URL, else the OpenAI API)')
    .option('--model <name>', 'model name sent to the server', 'gpt-4o-mini')
    .option('--llm-concurrency <n>', 'model requests in flight at once', wholeNumber('--llm-concurrency', 1), 4)
    .option('--llm-timeout <seconds>', 'time limit of one model request attempt', positiveNumber('--llm-timeout'), 60)
    .option('--llm-retries <n>', 'retries of a request after 429, 5xx, a timeout or a connection error (with backoff)', wholeNumber('--llm-retries', 0), 3)
    .option('--llm-max-retry-wait <seconds>', 'longest wait before a retry that a server\'s Retry-After may ask for (longer ones are shortened to it)', positiveNumber('--llm-max-retry-wait'), 60)
    .option('--cache <dir>', 'build cache folder: parses, the last build\'s record and model replies; an unchanged rebuild writes nothing, a changed skill is parsed again alone', '.skillc-cache')
    .option('--no-cache', 'do not read or write the build cache (every build is cold)')
    .option('--llm-cache <dir>', 'model reply cache folder (default: the --cache folder; a rebuild of an unchanged library makes no calls)')
    .option('--no-llm-cache', 'do not read or write the model reply cache')
    .addOption(new Option('--embeddings <provider>', 'dense vectors of every skill for `skillc query --embeddings`: none (offline) or openai (any OpenAI-compatible /embeddings endpoint); written to index/embeddings.f32').choices(['none', 'openai']).default('none'))
    .option('--embeddings-base-url <url>', 'OpenAI-compatible endpoint of the embedding model (default: $OPENAI_BASE_URL, else the OpenAI API)')
    .option('--embeddings-model <name>', 'embedding model name sent to the server', 'text-embedding-3-small')
    .addHelpText(
      'after',
      `
Outputs in <dir>:
  skills/<skill>/SKILL.md          the skeleton: code blocks an invoke reproduces token for token
                                   replaced by it, where that pays (else copied byte for byte)
  skills/<skill>/SKILL.replaced.md the original text of every rewritten section
  skills/<skill>/...               every other file of the skill, copied byte for byte
  bundles/<skill>.md               what an agent reads for a rewritten skill: the skill as written
  contracts/<id>.json, <id>.md     promoted and review contracts; index.d.ts: their signatures
  refactored_library.json          call-sites, dropped call-sites with reasons, cleanups, stats
  candidates.json                  every cluster with its verifier profile (see skillc explain)
  parents.json                     the parse IR: per skill, frontmatter.raw and units with exact offsets and text
  report.json/.md                  yield per pass, first failed checks, round trip, token counts
  diagnostics.json                 every diagnostic with file:line:col
  manifest.json                    every input file's size and SHA-256, and the options used

Model-assisted passes (--llm openai): one request per cluster (contract extraction), one per
parent with candidate call-sites (Binding Extraction), one per rewritten parent (Rewrite Cleanup),
at temperature 0 with structured output. Every reply is checked by the same deterministic
post-checks as the offline passes; a failed, invalid or rejected reply keeps the deterministic
result and leaves a diagnostic (SKC700-SKC704). The key comes from OPENAI_API_KEY.

Dense retrieval (--embeddings openai): each skill's name, description and headings are embedded
(replies kept in the model reply cache), and \`skillc query --embeddings openai\` mixes their cosine
with its lexical seeds. A request that fails leaves the dist without embeddings (SKC700).

Exit codes: 0 build completed, 1 --strict and errors were reported, 2 usage error, unreadable input
or an output folder skillc will not replace, 3 internal error (a pass failed; please report it),
128+n a signal arrived while the dist was written (it was finished first).

Examples:
  skillc build ./skills -o ./dist
  skillc build ./skills -o ./dist --llm openai --llm-base-url http://127.0.0.1:8000/v1 --model qwen2.5-7b-instruct`,
    )
    .action(async function (this: Command, library: string) {
      const { buildCommand } = await import('./build-command.js');
      const o = this.opts();
      // What --llm and --embeddings requests share: concurrency, time limits, retries and the reply
      // cache, which lives in the build cache unless told otherwise (replies go under llm/).
      const requestBounds = {
        concurrency: o.llmConcurrency as number,
        timeoutSeconds: o.llmTimeout as number,
        retries: o.llmRetries as number,
        maxRetryWaitSeconds: o.llmMaxRetryWait as number,
        cacheDir: o.llmCache === false ? false : ((o.llmCache as string | undefined) ?? (o.cache as string | false)),
      };
      this.setOptionValue('__exit', await buildCommand(library, {
        out: o.out as string,
        strict: o.strict as boolean | undefined,
        force: o.force as boolean | undefined,
        timings: o.timings as boolean | undefined,
        format: o.format as 'stylish' | 'json',
        maxDiagnostics: o.maxDiagnostics as number,
        maxSkillBytes: o.maxSkillBytes as number | undefined,
        quiet: o.quiet as boolean | undefined,
        verbose: o.verbose as boolean | undefined,
        progress: o.progress as boolean,
        jobs: o.jobs as number | undefined,
        policy: o.policy as string | undefined,
        llm: { llm: o.llm as 'none' | 'openai', baseURL: o.llmBaseUrl as string | undefined, model: o.model as string, ...requestBounds },
        embeddings: { embeddings: o.embeddings as 'none' | 'openai', baseURL: o.embeddingsBaseUrl as string | undefined, model: o.embeddingsModel as string, ...requestBounds },
        cache: o.cache as string | false,
        limitHeapGrowth: true,
      }, { stdout: process.stdout, stderr: process.stderr }));
    });

  program
    .command('explain')
    .description('show why a candidate cluster or contract was promoted or rejected')
    .argument('<id>', 'a cluster id (c-…) or a contract id from the build')
    .option('--dist <dir>', 'the build output folder', 'dist')
    .option('--json', 'print the candidate record as JSON')
    .addHelpText('after', `
Prints the verifier profile (coverage, binding, replacement, risk, score), the decision, the first
failed check or the witness with file:line evidence, risk findings, and the member units.

Example (on the Quickstart's dist, examples/dist):
  skillc explain pip-install-package --dist examples/dist`)
    .action(async function (this: Command, id: string) {
      const { explainCommand } = await import('./explain-command.js');
      const o = this.opts();
      this.setOptionValue('__exit', explainCommand(id, { dist: o.dist as string, json: o.json as boolean | undefined }, { stdout: process.stdout, stderr: process.stderr }));
    });

  program
    .command('calibrate')
    .description('check the verifier\'s thresholds on negative and positive controls and write a calibrated policy')
    .argument('<library>', 'the library to calibrate (as given to skillc build)')
    .argument('[other...]', 'other libraries: the foreign side of A_cross_domain controls')
    .option('--per-class <n>', 'controls per class (SPEC default 30; at least 100 recommended)', wholeNumber('--per-class', 1), 30)
    .option('--seed <n>', 'seed of the control draws (same seed, same controls and policy)', wholeNumber('--seed', 0), 1)
    .option('--fp-target <rate>', 'bound on the false-promotion rate (negatives auto-promoted)', rate('--fp-target'), 0.05)
    .option('--review-target <rate>', 'bound on the share of negatives reaching review or above', rate('--review-target'), 0.25)
    .addOption(new Option('--bound <method>', 'one-sided 95% upper confidence bound').choices(['clopper-pearson', 'wilson']).default('clopper-pearson'))
    .option('--policy <file>', 'the current policy (default: rules/policy.json); gates and weights are kept, tiers are searched')
    .option('-o, --output <file>', 'where to write the chosen policy', 'policy.calibrated.json')
    .option('--report-dir <dir>', 'where to write calibration.json, calibration.md and curve.svg', 'calibration')
    .option('-j, --jobs <n>', 'parse processes', wholeNumber('--jobs', 1))
    .option('-q, --quiet', 'print only the result, not the tables')
    .option('--no-progress', 'do not draw progress on the terminal')
    .addHelpText('after', `
Controls (two real units forced into one cluster, each drafted into a contract; pairs that give no
draft are redrawn, since a control that dies at extraction says nothing about thresholds):
  A_cross_domain          a unit of <library> with a unit of another library (needs [other...])
  B_same_domain_distinct  two units of different skills with different verbs and objects
  C_near_miss             two units with the same verb but different objects
  D_swapped_contract      a real cluster judged against another cluster's contract
  P_recurring (positive)  two near-identical units (cosine >= 0.8) of different skills in one cluster

Search: tau_auto 0.10..0.95 and tau_rev 0.05..tau_auto in steps of 0.05. A point is feasible when the
upper bounds of the false-promotion rate and of the review load are within their targets. The
feasible point with the highest recall wins (then most positives kept for review, then the
stricter point). If no negative passes every gate, the thresholds cannot be told apart: the run
says so and keeps the current policy.

Exit codes: 0 a point was chosen, 1 the current policy was kept (degenerate, no positive, or
nothing feasible), 2 usage error or unreadable input.

Examples:
  skillc calibrate ./skills --per-class 100 -o policy.json
  skillc calibrate ./skills ../other-skills --per-class 100 && skillc build ./skills -o dist --policy policy.calibrated.json`)
    .action(async function (this: Command, library: string, other: string[]) {
      const { calibrateCommand } = await import('./calibrate-command.js');
      (await import('./heap-growth.js')).limitHeapGrowth();
      const o = this.opts();
      this.setOptionValue('__exit', await calibrateCommand([library, ...other], {
        perClass: o.perClass as number,
        seed: o.seed as number,
        fpTarget: o.fpTarget as number,
        reviewTarget: o.reviewTarget as number,
        bound: o.bound as 'clopper-pearson' | 'wilson',
        policy: o.policy as string | undefined,
        output: o.output as string,
        reportDir: o.reportDir as string,
        jobs: o.jobs as number | undefined,
        quiet: o.quiet as boolean | undefined,
        progress: o.progress as boolean,
      }, { stdout: process.stdout, stderr: process.stderr }));
    });

  program
    .command('query')
    .description('retrieve the skills for a task from a built library, each as written, under a token budget')
    .argument('<task>', 'the task, in plain words')
    .option('--dist <dir>', 'the build output folder', 'dist')
    .option('-k, --top <n>', 'at most n skills', wholeNumber('-k', 1), 8)
    .option('--budget <tokens>', 'token budget of the whole answer (o200k_base BPE tokens; at least 200)', wholeNumber('--budget', 200), 8000)
    .addOption(new Option('--format <format>', 'md: what an agent reads; json: the same with every score').choices(['md', 'json']).default('md'))
    .option('--output-file <file>', 'write the answer to a file instead of stdout')
    .option('--plan', 'answer with the skills a multi-step task needs, in order (producers before consumers); -k is the most steps')
    .option('--fold-versions', 'fold other versions of a skill (the same name or folder name, TF-IDF cosine at least 0.9: republished or translated copies) into its best-ranked hit, which names them')
    .addOption(new Option('--embeddings <provider>', 'mix the cosine of the task\'s embedding with the dist\'s skill vectors (built with --embeddings) into the seeds: none or openai').choices(['none', 'openai']).default('none'))
    .option('--embeddings-base-url <url>', 'OpenAI-compatible endpoint of the embedding model (default: $OPENAI_BASE_URL, else the OpenAI API)')
    .option('--embeddings-model <name>', 'embedding model (default: the one the dist was built with; another is refused)')
    .option('--embeddings-weight <w>', 'share of a seed\'s text score given to the cosine', rate('--embeddings-weight'), 0.35)
    .addHelpText('after', `
How it ranks (SPEC §5, after Graph of Skills): BM25F over each skill's name, description, headings,
I/O, contract templates and body (a term the task repeats weighs more, BM25's k3 = 8), mixed with a
TF-IDF vector cosine and direct matches in name, description and I/O, orders the seed skills.
Personalized PageRank over graph.json's typed edges (invokes, dep, wf, sem, alt) then brings in
prerequisites and neighbours after the seeds, with a bounded boost that never reorders them. Only
skills are returned, never a contract.

NO_SKILL_HIT when no skill holds any of the task's words, or when the best skill matches less
than 20% of the (IDF) weight of the task's words that some skill holds: a share of what the
library could match, so a two-word query and a long task instruction meet the same bar.

Each hit is the skill as written, every line of it. Hits are added in rank order while they fit
the budget; every hit is listed, the ones over the budget by path and one line.

--plan: the steps are the seeds scoring at least 60% of the best, plus the prerequisites the graph
reaches backwards along dep or wf edges from them, in the order the task names what each is for
(the task's clause holding most of its words), each step right after the
steps whose output it takes. The answer is an outline (each step, what it does, the task's words
it serves, which earlier step it follows and why), the contracts the steps invoke stated once, then each step's bundle.

--embeddings openai (a dist built with --embeddings openai): the task is embedded by the same
model and each seed's text score becomes (1 - w) x the above + w x its cosine over the best cosine
(w = --embeddings-weight). Coverage and NO_SKILL_HIT stay those of the task's words. If the request
fails, the answer is ranked by text alone and stderr says so. --plan ranks by text alone.

Exit codes: 0 hits, 1 NO_SKILL_HIT (no skill matches the task), 2 usage error or unreadable dist.

Examples:
  skillc query "convert a scanned PDF to a Word document" --dist ./dist
  skillc query "detect intrusions in a packet capture" --dist ./dist -k 3 --budget 4000 --format json
  skillc query --plan "capture traffic on eth0, then detect intrusions in it" --dist ./dist`)
    .action(async function (this: Command, task: string) {
      const { runQuery } = await import('./query-command.js');
      const o = this.opts();
      this.setOptionValue('__exit', await runQuery(task, {
        dist: o.dist as string,
        k: o.top as number,
        budget: o.budget as number,
        format: o.format as 'md' | 'json',
        outputFile: o.outputFile as string | undefined,
        plan: o.plan === true,
        foldVersions: o.foldVersions === true,
        embeddings: {
          embeddings: o.embeddings as 'none' | 'openai',
          baseURL: o.embeddingsBaseUrl as string | undefined,
          model: o.embeddingsModel as string | undefined,
          weight: o.embeddingsWeight as number,
        },
      }));
    });

  program
    .command('serve')
    .description('serve a built library to agents over the Model Context Protocol (stdio, or Streamable HTTP on loopback)')
    .option('--dist <dir>', 'the build output folder', 'dist')
    .option('--http <port>', 'serve Streamable HTTP at http://127.0.0.1:<port>/mcp instead of stdio (0: any free port)', port('--http'))
    .option('--host <address>', 'with --http: the address to listen on (default 127.0.0.1; another address is reachable without authentication)')
    .option('--allow-host <names>', 'with --http: host names (comma-separated) clients may use in Host and Origin besides loopback names and, off loopback, IP addresses')
    .option('--watch-interval <ms>', 'how often manifest.json is checked for a rebuild', wholeNumber('--watch-interval', 50), 1000)
    .option('-q, --quiet', 'print nothing on stderr but errors')
    .addHelpText('after', `
Tools (each read-only; data results also as structuredContent):
  search_skills {query, k?}            ranked hits: path, name, description, score (as query --format json)
  retrieve_bundle {query, k?, budget?} the skills' texts under a token budget (the markdown of skillc query)
  plan {query, k?, budget?}            ordered steps of a multi-step task (skillc query --plan)
  get_skill_bundle {skill}             one skill as an agent reads it, by path
  get_contract {id}                    a contract's readable text and JSON
  list_skills {cursor?}                every skill by path with name and description, 100 per page
Resources: skill://<path> (each path segment URI-encoded) and contract://<id>.

The dist is loaded once and answered from memory. A rebuild of it is picked up before the next
request (and announced to clients as a changed resource list); a rebuild that cannot be loaded is
reported on stderr, and requests get that message as tool errors until a good build replaces it.
On stdio, stdout carries only the protocol; messages go to stderr. Bad arguments, unknown skills
and contracts are tool errors, never a crash.

Exit codes: 0 the client closed stdin or the server got SIGINT/SIGTERM; 2 usage error, a missing
or damaged dist, or a port that cannot be listened on.

Register it in an MCP client (mcpServers), with absolute paths:
  {"mcpServers": {"skills": {"command": "node", "args": ["/path/to/skillc/bin/skillc.js", "serve", "--dist", "/path/to/dist"]}}}

Examples:
  skillc serve --dist ./dist
  skillc serve --dist ./dist --http 8808`)
    .action(async function (this: Command) {
      const { serveCommand } = await import('./serve-command.js');
      const o = this.opts();
      this.setOptionValue('__exit', await serveCommand({
        dist: o.dist as string,
        ...(o.http !== undefined ? { http: o.http as number } : {}),
        ...(o.host !== undefined ? { host: o.host as string } : {}),
        ...(o.allowHost !== undefined ? { allowHosts: (o.allowHost as string).split(',').map((h) => h.trim()).filter((h) => h !== '') } : {}),
        watchInterval: o.watchInterval as number,
        quiet: o.quiet === true,
      }, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }));
    });

  program
    .command('lint')
    .description('check skills before they are committed: the Agent Skills specification, body size, fences, links, undeclared risky calls; offline, no model')
    .argument('[paths...]', 'SKILL.md files, files inside skills, skill folders or library folders (default: .)')
    .addOption(new Option('-f, --format <format>', 'stylish: file:line:col lines; json: ESLint-style results; sarif: SARIF 2.1.0 for code scanning').choices(['stylish', 'json', 'sarif']).default('stylish'))
    .option('-o, --output-file <file>', 'write the report to a file instead of stdout')
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings (-1: no limit)', wholeNumber('--max-warnings', -1), -1)
    .option('--strict', 'match the Agent Skills reference validator: unknown fields and strict-YAML problems are errors')
    .option('--dist <dir>', 'a built library (skillc build output): also report skills that re-describe or contradict its contracts')
    .option('--fix', 'apply the safe fixes to SKILL.md files, then report what remains')
    .option('-c, --config <file>', `configuration file (default: the nearest ${'.skillc-lint.json'} upwards)`)
    .option('--quiet', 'report errors only')
    .option('--report-unused-disable-directives', 'warn about skillc-disable comments that suppress nothing')
    .option('-j, --jobs <n>', 'worker threads when linting many skills (output is the same for any n)', wholeNumber('--jobs', 1))
    .option('--no-progress', 'do not draw progress on the terminal')
    .addHelpText('after', `
Rules (id, default level; --strict raises the two marked *): see README "skillc lint".
  skill-file-name error         file-encoding error            frontmatter-present error
  frontmatter-yaml error        frontmatter-strict warn*       name-format error
  name-matches-folder error     description-format error       compatibility-format error
  metadata-string-map warn      allowed-tools-format error     allowed-tools-string warn
  unknown-fields warn*          body-length warn               fence-balanced error
  parse-budget warn             link-resolves error            link-depth warn
  undeclared-risk warn          decode-and-execute error       untrusted-remote-script error
  password-archive-executable error                            paste-command-from-page error
  disable-os-protection error   credential-exfiltration error  redescribes-contract warn
  contradicts-template warn     (the last two run only with --dist)
Always on: lint/skill-not-read (a skill file too large, unreadable or a symbolic link: error),
lint/file-not-read (an unreadable file or folder: error; a script too large or linked: warning).

Configuration (.skillc-lint.json, schema: schemas/lint-config.schema.json):
  {"strict": false, "rules": {"unknown-fields": "error", "body-length": ["warn", {"maxLines": 400}]}}
Inline: <!-- skillc-disable-next-line link-depth -->, <!-- skillc-disable rule -->/<!-- skillc-enable rule -->;
in the frontmatter and in scripts: # skillc-disable-next-line unknown-fields

Exit codes: 0 no errors, 1 errors (or more warnings than --max-warnings), 2 usage, configuration or internal error.
Never uses the network or a model.

Examples:
  skillc lint skills/
  skillc lint --strict --format sarif -o skillc.sarif skills/
  skillc lint --fix skills/pdf/SKILL.md
  skillc lint --dist dist/ skills/new-skill`)
    .action(async function (this: Command, paths: string[]) {
      const { lintCommand } = await import('./lint-command.js');
      const o = this.opts();
      this.setOptionValue('__exit', await lintCommand(paths, {
        format: o.format as 'stylish' | 'json' | 'sarif',
        maxWarnings: o.maxWarnings as number,
        ...(o.outputFile !== undefined ? { outputFile: o.outputFile as string } : {}),
        ...(o.dist !== undefined ? { dist: o.dist as string } : {}),
        ...(o.config !== undefined ? { config: o.config as string } : {}),
        ...(o.jobs !== undefined ? { jobs: o.jobs as number } : {}),
        fix: o.fix === true,
        strict: o.strict === true,
        quiet: o.quiet === true,
        reportUnusedDisableDirectives: o.reportUnusedDisableDirectives === true,
        progress: o.progress as boolean,
      }, { stdout: process.stdout, stderr: process.stderr }));
    });

  return program;
}

/** Runs the CLI and returns the exit code (the launcher sets process.exitCode). */
export async function main(argv: readonly string[]): Promise<number> {
  const program = makeProgram();
  try {
    await program.parseAsync(argv as string[]);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0; every usage error is 2 (ESLint's convention).
      return err.exitCode === 0 ? 0 : 2;
    }
    throw err;
  }
  for (const cmd of program.commands) {
    const code = cmd.getOptionValue('__exit') as number | undefined;
    if (code !== undefined) return code;
  }
  if (program.args.length === 0) {
    program.outputHelp();
    return 2;
  }
  return 0;
}
