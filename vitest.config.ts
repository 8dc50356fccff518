import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Fixture skills may carry their own tests (an extended package's tests/); they are data here, not suites.
    exclude: ['test/fixtures/**', 'node_modules/**'],
    // Browser and end-to-end tests start servers and Chromium; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
