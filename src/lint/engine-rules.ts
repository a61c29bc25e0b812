/**
 * Ids of the messages the lint engine itself reports, outside any rule. They are always on and
 * take no options (ESLint's fatal messages play the same part): a disable comment cannot hide a
 * skill that was never read or a rule that crashed.
 */
export const ENGINE_RULES = {
  unusedDisable: 'lint/unused-disable',
  unknownRule: 'lint/unknown-rule',
  /** A disable comment naming a rule the skill under check cannot turn off (inlineDisable: false). */
  disableRefused: 'lint/disable-refused',
  ruleCrashed: 'lint/rule-crashed',
  internalError: 'lint/internal-error',
  /** A skill file that could not be read (too large, unreadable, a link, not a file): never linted. */
  skillNotRead: 'lint/skill-not-read',
  /** Another file or folder of a skill, or of the library, that was not read or not scanned. */
  fileNotRead: 'lint/file-not-read',
} as const;
