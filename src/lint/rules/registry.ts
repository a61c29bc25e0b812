/**
 * Every lint rule, in the order they are documented and run. Explicit on purpose (no directory
 * scan): a rule exists when it is listed here, and tests check each listed rule has a doc, option
 * schema and fixtures. Ids are never reused; a retired rule stays here as a comment.
 */
import type { LintRule } from '../types.js';
import { skillFileName } from './skill-file-name.js';
import { fileEncoding } from './file-encoding.js';
import { frontmatterPresent } from './frontmatter-present.js';
import { frontmatterYaml } from './frontmatter-yaml.js';
import { frontmatterStrict } from './frontmatter-strict.js';
import { nameFormat } from './name-format.js';
import { nameMatchesFolder } from './name-matches-folder.js';
import { descriptionFormat } from './description-format.js';
import { compatibilityFormat } from './compatibility-format.js';
import { metadataStringMap } from './metadata-string-map.js';
import { allowedToolsFormat } from './allowed-tools-format.js';
import { allowedToolsString } from './allowed-tools-string.js';
import { unknownFields } from './unknown-fields.js';
import { bodyLength } from './body-length.js';
import { fenceBalanced } from './fence-balanced.js';
import { parseBudget } from './parse-budget.js';
import { linkResolves } from './link-resolves.js';
import { linkDepth } from './link-depth.js';
import { undeclaredRisk } from './undeclared-risk.js';
import { redescribesContract } from './redescribes-contract.js';
import { contradictsTemplate } from './contradicts-template.js';
import { decodeAndExecute } from './decode-and-execute.js';
import { untrustedRemoteScript } from './untrusted-remote-script.js';
import { passwordArchiveExecutable } from './password-archive-executable.js';
import { pasteCommandFromPage } from './paste-command-from-page.js';
import { disableOsProtection } from './disable-os-protection.js';
import { credentialExfiltration } from './credential-exfiltration.js';

export const LINT_RULES: readonly LintRule[] = [
  skillFileName,
  fileEncoding,
  frontmatterPresent,
  frontmatterYaml,
  frontmatterStrict,
  nameFormat,
  nameMatchesFolder,
  descriptionFormat,
  compatibilityFormat,
  metadataStringMap,
  allowedToolsFormat,
  allowedToolsString,
  unknownFields,
  bodyLength,
  fenceBalanced,
  parseBudget,
  linkResolves,
  linkDepth,
  undeclaredRisk,
  decodeAndExecute,
  untrustedRemoteScript,
  passwordArchiveExecutable,
  pasteCommandFromPage,
  disableOsProtection,
  credentialExfiltration,
  redescribesContract,
  contradictsTemplate,
];

export function ruleById(id: string): LintRule | undefined {
  return LINT_RULES.find((r) => r.meta.id === id);
}
