import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn the compiled binary; `npm test` compiles first.
    testTimeout: 60_000,
    pool: 'forks',
  },
});
