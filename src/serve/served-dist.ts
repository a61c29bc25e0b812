/**
 * The compiled library a server answers from: the dist's query index loaded once and whole
 * (through the same retriever `skillc query` uses, so answers are the CLI's; GraphIndex.preload),
 * the skills sorted by path for listing, and the contracts the dist holds. Everything a request
 * needs is in memory except the bundle and contract texts, which are read per request through
 * util/confined-read, as the CLI reads them.
 *
 * A rebuilt dist is picked up. The build replaces its output folder as a whole (two renames,
 * emit/write-dist.ts), so manifest.json's identity (inode, size, mtime, ctime) changes with every
 * build. `ServedDistHandle.current()` compares it before each request, a stat of one file, and
 * reloads when it differs; `watch()` polls the same identity so that connected clients can be told
 * the resource list changed even when they ask nothing. A reload that fails (a build that wrote a
 * damaged index) leaves the handle in error: every request gets that message as a tool error until
 * a good build replaces it. A manifest that is missing for an instant (between the two renames)
 * keeps what is loaded.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { GraphNode, ParentNode } from '../graph/types.js';
import { IndexError, noDistMessage } from '../query/graph-index.js';
import { openRetriever, type Retriever } from '../query/retriever.js';
import { DistReadError, MAX_INDEX_BYTES, readDistFile } from '../util/confined-read.js';
import { compareCodeUnits } from '../util/stable-json.js';

export interface ServedSkill {
  readonly path: string;
  readonly name: string;
  readonly description: string;
  readonly node: ParentNode;
}

export interface ServedDist {
  readonly dist: string;
  readonly retriever: Retriever;
  /** Every skill, sorted by path (code unit order): list_skills pages through this. */
  readonly skills: readonly ServedSkill[];
  readonly skillByPath: ReadonlyMap<string, ServedSkill>;
  /** Contract ids with both files (contracts/<id>.json and .md), sorted. */
  readonly contracts: readonly string[];
  /** First 16 hex digits of manifest.json's SHA-256: names this build in list cursors. */
  readonly generation: string;
}

/** A dist that cannot be served: missing, not a skillc dist, or a damaged index. */
export class ServeError extends Error {}

/** Contract ids as the build writes them (extract/contract-id.ts): lower-case words joined by '-'. */
const CONTRACT_FILE = /^([a-z0-9][a-z0-9-]*)\.json$/;

export function loadServedDist(dist: string): ServedDist {
  let manifestText: Buffer;
  try {
    manifestText = readDistFile(dist, 'manifest.json', { maxBytes: MAX_INDEX_BYTES });
  } catch (err) {
    if (err instanceof DistReadError && err.problem === 'missing') {
      throw new ServeError(noDistMessage(dist));
    }
    throw new ServeError(err instanceof Error ? err.message : String(err));
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText.toString('utf8'));
  } catch (err) {
    throw new ServeError(`${path.join(dist, 'manifest.json')} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof manifest !== 'object' || manifest === null || (manifest as { format?: unknown }).format !== 'skillc-dist') {
    throw new ServeError(`${path.join(dist, 'manifest.json')} is not a skillc dist manifest; rebuild the library with this skillc`);
  }
  let retriever: Retriever;
  let nodes: readonly GraphNode[];
  try {
    retriever = openRetriever(dist);
    retriever.index.preload();
    nodes = retriever.index.allNodes();
  } catch (err) {
    if (err instanceof IndexError || err instanceof DistReadError) throw new ServeError(err.message);
    throw err;
  }
  const skills = nodes
    .filter((n): n is ParentNode => n.kind === 'parent')
    .map((node) => ({ path: node.path, name: node.name, description: node.description, node }))
    .sort((a, b) => compareCodeUnits(a.path, b.path));
  return {
    dist,
    retriever,
    skills,
    skillByPath: new Map(skills.map((s) => [s.path, s])),
    contracts: contractIds(dist),
    generation: createHash('sha256').update(manifestText).digest('hex').slice(0, 16),
  };
}

/** Contracts with both their files; a dist without contracts/ has none. */
function contractIds(dist: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(dist, 'contracts'));
  } catch {
    return [];
  }
  const have = new Set(names);
  return names.flatMap((n) => {
    const m = CONTRACT_FILE.exec(n);
    return m && have.has(`${m[1]}.md`) ? [m[1]!] : [];
  }).sort();
}

/** What identifies one build's manifest.json on disk; null when it cannot be read now. */
function manifestIdentity(dist: string): string | null {
  try {
    const s = fs.statSync(path.join(dist, 'manifest.json'), { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return null;
  }
}

export interface ServedDistHandle {
  /** The dist as it is now, reloaded first if it was rebuilt; a ServeError if it cannot be served. */
  current(): ServedDist;
  /**
   * Whether `served` is no longer what the folder holds: a build replaced it (or is between its
   * two renames). A read that failed against it is then worth retrying after `settled()`.
   */
  stale(served: ServedDist): boolean;
  /** The dist once a rebuild in progress has put its new manifest in place (waits at most `ms`). */
  settled(ms?: number): Promise<ServedDist>;
  /**
   * Polls manifest.json every `intervalMs`; `onReload` is called after each reload or failed one,
   * whether the poll or a request's current() noticed the rebuild first.
   */
  watch(intervalMs: number, onReload: (result: ServedDist | ServeError) => void): void;
  close(): void;
}

/** Loads the dist now (a ServeError if it cannot be served) and keeps it current. */
export function openServedDist(dist: string, load: (dist: string) => ServedDist = loadServedDist): ServedDistHandle {
  let identity = manifestIdentity(dist);
  let state: ServedDist | ServeError = load(dist);
  const manifestPath = path.join(dist, 'manifest.json');
  let watching = false;
  const listeners: ((result: ServedDist | ServeError) => void)[] = [];
  /** Reloads when manifest.json is another file than the one loaded, and tells the listeners. */
  const refresh = (): void => {
    const now = manifestIdentity(dist);
    if (now === null || now === identity) return;
    identity = now;
    try {
      state = load(dist);
    } catch (err) {
      if (!(err instanceof ServeError)) throw err;
      state = err;
    }
    for (const listener of listeners) listener(state);
  };
  const current = (): ServedDist => {
    refresh();
    if (state instanceof ServeError) throw new ServeError(`${state.message} (the dist changed after the server started; serving resumes when a build replaces it)`);
    return state;
  };
  return {
    current,
    stale(served) {
      const now = manifestIdentity(dist);
      return now === null || now !== identity || served !== state;
    },
    async settled(ms = 1000) {
      // Between a build's two renames there is no manifest; the new one appears within moments.
      const end = Date.now() + ms;
      while (manifestIdentity(dist) === null && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
      return current();
    },
    watch(intervalMs, onReload) {
      listeners.push(onReload);
      if (watching) return;
      watching = true;
      // fs.watchFile polls the path, so it follows the new folder a build renames into place.
      fs.watchFile(manifestPath, { interval: intervalMs, persistent: false }, refresh);
    },
    close() {
      if (watching) fs.unwatchFile(manifestPath);
      watching = false;
    },
  };
}
