import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, 'N passed, N failed, N skipped', that any CI reader understands. A test file
 * that fails before its tests run, and an unhandled error, each count as one failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const m of modules) {
      let failedHere = 0;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      failed += failedHere || (m.state() === 'failed' ? 1 : 0);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
