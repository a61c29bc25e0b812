/**
 * Names that mix letters and digits (`n8n`, `k8s`, `ec2`, `oauth2`) are terms of the graph index
 * and of a query: split into pieces they were lost (`n8n` has no piece of two letters) or matched
 * anything about `ec` or `oauth`. So are names written in humps (`PowerPoint`, `YouTube`): as
 * pieces only, `powerpoint` typed in lower case met no skill. Propose's unit vectors keep the
 * pieces only (text/tokens.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';
import { openRetriever } from '../../src/query/retriever.js';
import { contentTokens, contentWords, indexTokens, stem } from '../../src/text/tokens.js';

describe('mixed letter-and-digit words', () => {
  it('are index terms after their pieces, and not content tokens', () => {
    const text = 'Deploy n8n on k8s, copy to s3 and ec2 with python3; see e29b41d4a716 and file-1.';
    expect(contentWords(text)).toEqual(['deploy', 'n8n', 'k8s', 'copy', 's3', 'ec', 'ec2', 'python', 'python3', 'see', 'file']);
    expect(indexTokens(text)).toEqual(contentWords(text).map((w) => (/[0-9]/.test(w) ? w : stem(w))));
    // Porter2 marks a y with the digit 3: a mixed run is never stemmed (`mp3` is not `mpi`).
    expect(indexTokens('play an mp3 with python3')).toEqual(['play', 'mp', 'mp3', 'python', 'python3']);
    expect(contentTokens(text)).toEqual(['deploy', 'copi', 'ec', 'python', 'see', 'file']);
  });

  it('a name in humps is a term after its pieces; a lower-case identifier and a long one are not', () => {
    expect(contentWords('Export PowerPoint decks to YouTube and OneDrive PDFs')).toEqual(['export', 'power', 'point', 'powerpoint', 'decks', 'tube', 'youtube', 'one', 'drive', 'onedrive', 'pd', 'fs', 'pdfs']);
    expect(indexTokens('PowerPoint PDFs')).toEqual(['power', 'point', 'powerpoint', 'pd', 'fs', 'pdfs']);
    expect(contentWords('call readFile and getElementsByTagName')).toEqual(['call', 'read', 'file', 'get', 'elements', 'tag', 'name']);
    expect(contentTokens('PowerPoint')).toEqual(['power', 'point']);
    // Not names: stop words in humps, a single long piece, a stop word once stemmed, a lower-case start.
    expect(indexTokens('ItIs ThisIs SaaS ANDs macOS')).toEqual(['saa', 'ds', 'mac', 'os']);
  });
});

let dist: string;
beforeAll(() => {
  const root = scratchDir('mixed-words');
  const skill = (name: string, description: string, body: string) => {
    fs.mkdirSync(path.join(root, 'skills', name), { recursive: true });
    fs.writeFileSync(path.join(root, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${body}\n`);
  };
  skill('n8n-architect', 'Design n8n automations: nodes, triggers and credentials.', 'Open the n8n editor and add a Webhook node.');
  skill('k8s-manifests', 'Write k8s manifests for a service.', 'Use kubectl apply -f deploy.yaml.');
  skill('oauth-basics', 'Explain the oauth flow in general terms.', 'Authorization servers issue tokens.');
  skill('oauth2-client', 'Configure an oauth2 client with PKCE.', 'Register the redirect URI and store the client secret.');
  skill('mpi-jobs', 'Launch MPI jobs on a cluster.', 'Run mpirun -np 4 ./solver.');
  skill('slide-decks', 'Build PowerPoint decks from an outline.', 'Write each slide with python-pptx.');
  skill('video-downloads', 'Download videos from YouTube with yt-dlp.', 'Pick the format with -f.');
  dist = path.join(root, 'dist');
  const r = skillc(['build', path.join(root, 'skills'), '-o', dist, '-q']);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

describe('a query with mixed words', () => {
  it('finds the skill a name like n8n or k8s names', async () => {
    const retriever = openRetriever(dist);
    try {
      expect((await retriever.query('n8n', { k: 3 })).hits[0]?.node.path).toBe('n8n-architect');
      expect((await retriever.query('deploy to k8s', { k: 3 })).hits[0]?.node.path).toBe('k8s-manifests');
      const oauth2 = (await retriever.query('set up oauth2', { k: 3 })).hits.map((h) => h.node.path);
      expect(oauth2[0]).toBe('oauth2-client');
      expect((await retriever.query('play an mp3', { k: 3 })).hits.map((h) => h.node.path)).not.toContain('mpi-jobs');
      // A name the skill writes in humps, typed in lower case.
      expect((await retriever.query('make a powerpoint deck', { k: 3 })).hits[0]?.node.path).toBe('slide-decks');
      expect((await retriever.query('save a youtube video', { k: 3 })).hits[0]?.node.path).toBe('video-downloads');
    } finally {
      retriever.close();
    }
  });
});
