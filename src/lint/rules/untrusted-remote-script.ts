/** untrusted-remote-script: see rules/malicious-patterns.json and malicious-install.ts. */
import { maliciousInstallRule } from './malicious-install.js';

export const untrustedRemoteScript = maliciousInstallRule('untrusted-remote-script');
