/**
 * Worker-thread entry that counts BPE tokens. Loading the tokenizer costs about 200 ms of CPU; a
 * one-skill lint starts this worker first so the load runs on the other core while the main
 * thread loads the parser and reads the skill.
 */
import { parentPort } from 'node:worker_threads';
import { loadTokenCounter } from '../text/bpe.js';

const counter = loadTokenCounter();
parentPort?.on('message', (msg: { id: number; text: string }) => {
  void counter.then((count) => parentPort!.postMessage({ id: msg.id, count: count(msg.text) }));
});
