/** The tool's identity as recorded in artifacts. Kept in sync with package.json by a test. */
export const TOOL_NAME = 'skillc';
export const TOOL_VERSION = '0.1.0';
