import { defineConfig } from 'vitest/config';

// The contract tests (docs/decisions/145): the platforms' official SDKs are Node packages, so these
// run under Node, against the same fakes the Workers pool binds (fakes/platforms.js in Miniflare).
export default defineConfig({
  test: {
    include: ['tests/contract/**/*.test.mjs'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
