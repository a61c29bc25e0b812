/** paste-command-from-page: see rules/malicious-patterns.json and malicious-install.ts. */
import { maliciousInstallRule } from './malicious-install.js';

export const pasteCommandFromPage = maliciousInstallRule('paste-command-from-page');
