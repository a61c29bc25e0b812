/**
 * Bytes to text exactly as the WHATWG UTF-8 decoder does it (a leading BOM is dropped, invalid
 * sequences become U+FFFD), so anyone can reproduce our "decoded text" with `new TextDecoder()`.
 * We additionally report where the first invalid sequence is.
 */
import type { Encoding } from '../ir/types.js';

const lenient = new TextDecoder('utf-8');
const strict = new TextDecoder('utf-8', { fatal: true });

export interface Decoded {
  readonly text: string;
  readonly encoding: Encoding;
  /** Byte offset of the first invalid sequence, when encoding is utf-8-invalid. */
  readonly firstInvalidByte?: number;
}

export function decodeUtf8(bytes: Uint8Array): Decoded {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    const text = strict.decode(bytes);
    return { text, encoding: bom ? 'utf-8-bom' : 'utf-8' };
  } catch {
    return { text: lenient.decode(bytes), encoding: 'utf-8-invalid', firstInvalidByte: firstInvalidUtf8(bytes) };
  }
}

/** Index of the first byte that does not start or continue a well-formed UTF-8 sequence. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f; // no surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined) return i;
      const [l, h] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (d < l || d > h) return i;
    }
    i += n + 1;
  }
  return -1;
}

/** True when the bytes look like text: valid UTF-8 and no NUL in the first 8 KiB. */
export function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return false;
  return firstInvalidUtf8(bytes) < 0;
}
