import { defineConfig } from 'vitest/config';

/** One run, several lanes: every test lane the machine supports (see scripts/system-deps.sh). */
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          env: { TZ: 'UTC' },
        },
      },
      {
        test: {
          name: 'api-sqlite',
          include: ['apps/api/src/**/*.test.ts'],
          env: { EK_TEST_DB: 'sqlite', KEPT_ANSWERS: 'check' },
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'api-postgres',
          include: ['apps/api/src/**/*.test.ts'],
          env: { EK_TEST_DB: 'postgres', KEPT_ANSWERS: 'check' },
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'edge',
          include: ['apps/agent/src/**/*.test.ts'],
          env: { KEPT_ANSWERS: 'check' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/build-once.ts'],
          env: { KEPT_ANSWERS: 'check' },
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
