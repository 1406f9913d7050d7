import type { Suite } from 'mocha';
import { WorkbenchPool } from './shared';
import { packagedVsix } from './vsix';
import { type Workbench, type WorkbenchOptions, startWorkbench } from './workbench';

// One workbench for a mocha suite: started before its tests (its window: the page, the extension host and the
// panel take most of its start), closed after them, and a screenshot of the window for each test that fails
// (failed-TITLE.png beside the suite's other artefacts). The suites of one mocha run share Chromium and, where
// they ask nothing else of it, code-server (shared.ts); a root after hook, added by the first suite to start,
// ends them after the last file, whether the run is one file or the whole phase.

/** Made when the first test file loads, before any suite's hooks change the environment it keys on. */
const pool = new WorkbenchPool();
let closing = false;

const rootOf = (suite: Suite): Suite => (suite.parent ? rootOf(suite.parent) : suite);

export function useWorkbench(started: (workbench: Workbench) => void, options: WorkbenchOptions = {}): void {
  let workbench: Workbench | undefined;
  // Packaging takes seconds (a production build): begun as the file loads, beside the suites before it, it is
  // built by the time the suite starts, which awaits the same build (vsix.ts) and fails if it failed.
  if (options.install === 'vsix') packagedVsix().catch(() => undefined);

  before(async function () {
    this.timeout(300_000);
    if (!closing && this.test?.parent) {
      closing = true;
      rootOf(this.test.parent).afterAll(async function closePool() {
        this.timeout(60_000);
        await pool.close();
      });
    }
    workbench = await startWorkbench(options, pool);
    started(workbench);
  });

  after(async function () {
    this.timeout(60_000);
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && workbench) {
      const name = `failed-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`;
      await workbench.screenshot(name).catch(() => undefined);
    }
  });
}
