/** credential-exfiltration: see rules/malicious-patterns.json and malicious-install.ts. */
import { maliciousInstallRule } from './malicious-install.js';

export const credentialExfiltration = maliciousInstallRule('credential-exfiltration');
