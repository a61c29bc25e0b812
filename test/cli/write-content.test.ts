import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../helpers/tmp.js';
import { writeDist } from '../../src/emit/write-dist.js';

describe('content written from text and from pieces', () => {
  it('is each piece encoded as UTF-8 on its own, and the digest is of those bytes', () => {
    const box = scratchDir('write-content');
    // Multi-byte characters, a surrogate pair split across two pieces, lone surrogates, and pieces
    // near and past the size at which they are encoded on their own (1 MiB / 3 code units).
    const big = 'é'.repeat(400_000) + '\u{1F600}'.repeat(10);
    const pieces = ['{"a":', '"\u00e9\u4e2d\u{1F600}"', '\ud83d', '\ude00', 'x'.repeat(349_000), big, 'tail\ud800', ']', 'y'.repeat(2_000_000), '}'];
    const text = 'plain ✓ text \ud800 end';
    const digests = new Map<string, string>();
    writeDist(path.join(box, 'dist'), [
      { path: 'parents.json', content: pieces },
      { path: 'report.md', content: text },
    ], { digests });
    const wantPieces = Buffer.concat(pieces.map((p) => Buffer.from(p, 'utf8')));
    const gotPieces = fs.readFileSync(path.join(box, 'dist', 'parents.json'));
    expect(gotPieces.equals(wantPieces)).toBe(true);
    expect(digests.get('parents.json')).toBe(crypto.createHash('sha256').update(wantPieces).digest('hex'));
    const wantText = Buffer.from(text, 'utf8');
    expect(fs.readFileSync(path.join(box, 'dist', 'report.md')).equals(wantText)).toBe(true);
    expect(digests.get('report.md')).toBe(crypto.createHash('sha256').update(text).digest('hex'));
  });
});
