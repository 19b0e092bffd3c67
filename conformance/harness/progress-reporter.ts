// One line a case file while the suite runs: `[3/6] metadata.test.ts  14 passed, 0 failed`.
import { basename } from 'node:path';

interface AggregatedLike {
  numTotalTestSuites: number;
}
interface ResultLike {
  testFilePath: string;
  numPassingTests: number;
  numFailingTests: number;
  numPendingTests: number;
  testExecError?: { message: string };
}

export default class ProgressReporter {
  private done = 0;
  private total = 0;

  onRunStart(results: AggregatedLike): void {
    this.total = results.numTotalTestSuites;
    process.stderr.write(`running ${this.total} case files\n`);
  }

  onTestResult(_test: unknown, r: ResultLike): void {
    this.done++;
    const skipped = r.numPendingTests ? `, ${r.numPendingTests} not run` : '';
    const error = r.testExecError ? ` — could not run: ${r.testExecError.message.split('\n')[0]}` : '';
    process.stderr.write(
      `[${this.done}/${this.total}] ${basename(r.testFilePath).padEnd(24)} ${r.numPassingTests} passed, ${r.numFailingTests} failed${skipped}${error}\n`,
    );
  }

  getLastError(): undefined {
    return undefined;
  }
}
