/**
 * Token counts with a real BPE tokenizer (o200k_base, the GPT-4o family's encoding, shipped inside
 * the gpt-tokenizer package; no network). Figures are an approximation for other model families,
 * so reports label them "≈ tokens (o200k)". Loaded on first use: about 150 ms.
 */
let counter: ((text: string) => number) | undefined;

export async function loadTokenCounter(): Promise<(text: string) => number> {
  if (!counter) {
    const mod = await import('gpt-tokenizer/encoding/o200k_base');
    counter = (text: string) => (text === '' ? 0 : mod.countTokens(text));
  }
  return counter;
}

export const TOKENIZER = 'o200k_base';
