/** The sink ids the JS/TS walker detects; apart from js.ts so the scanner can know them without loading the JS parser. */
export const JS_SINK_IDS = ['js.child-process-exec', 'js.eval', 'js.fs-delete', 'js.network', 'js.secret-read'] as const;
