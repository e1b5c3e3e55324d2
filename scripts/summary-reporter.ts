import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** How many of the slowest test files the summary names. */
const SLOWEST = 12;

/**
 * Ends the run with the slowest test files (where the suite's time goes, by lane) and one plain line, 'N passed,
 * N failed, N skipped', that any CI reader understands. A test file that fails before its tests run, and an unhandled
 * error, each count as one failure.
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
    const slowest = modules
      .map((m) => ({ m, d: m.diagnostic() }))
      .map(({ m, d }) => ({ name: `${m.project.name} ${m.relativeModuleId}`, seconds: (d.collectDuration + d.duration) / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST);
    process.stdout.write(`\nslowest test files:\n${slowest.map((s) => `  ${s.seconds.toFixed(0).padStart(5)} s  ${s.name}`).join('\n')}\n`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
