/** password-archive-executable: see rules/malicious-patterns.json and malicious-install.ts. */
import { maliciousInstallRule } from './malicious-install.js';

export const passwordArchiveExecutable = maliciousInstallRule('password-archive-executable');
