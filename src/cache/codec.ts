/**
 * How cached values are stored: V8's structured serialisation, the same format worker threads use
 * to hand results back (postMessage). A value read from the cache is therefore exactly what a
 * worker would have returned (Dates, -0, Infinity and undefined survive, unlike JSON), so a build
 * from cached parses is the same as one that parsed. The format changes with V8, which is part of
 * every key (keys.ts). Deserialising builds plain data only (no code runs); a payload that does
 * not decode is a miss.
 */
import v8 from 'node:v8';

export function encodeValue(value: unknown): Uint8Array {
  return v8.serialize(value);
}

export function decodeValue(payload: Uint8Array): unknown {
  try {
    return v8.deserialize(payload) as unknown;
  } catch {
    return undefined;
  }
}
