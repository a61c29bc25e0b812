/** disable-os-protection: see rules/malicious-patterns.json and malicious-install.ts. */
import { maliciousInstallRule } from './malicious-install.js';

export const disableOsProtection = maliciousInstallRule('disable-os-protection');
