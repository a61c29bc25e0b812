/** decode-and-execute: see rules/malicious-patterns.json and malicious-install.ts. */
import { maliciousInstallRule } from './malicious-install.js';

export const decodeAndExecute = maliciousInstallRule('decode-and-execute');
