import { type Workbench, type WorkbenchOptions, startWorkbench } from './workbench';

// One workbench for a mocha suite: started before its tests (code-server's start and the first load take most
// of a minute on a busy two-core machine), closed after them, and a screenshot of the window for each test
// that fails (failed-TITLE.png beside the suite's other artefacts).

export function useWorkbench(started: (workbench: Workbench) => void, options: WorkbenchOptions = {}): void {
  let workbench: Workbench | undefined;

  before(async function () {
    this.timeout(300_000);
    workbench = await startWorkbench(options);
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
