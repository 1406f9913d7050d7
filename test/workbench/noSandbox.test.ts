import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { hostMarker } from './marker';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Where no sandbox works (LOOPWIRE_SANDBOX=off, read by the extension host this suite's code-server starts):
// the panel's default stays Ask, its first showing says once why and how to get a sandbox, and the
// composer's Auto cannot be picked, saying why. Screenshots go to test-artifacts/workbench/sandbox/.

const SANDBOX_ARTIFACTS = path.join(ARTIFACTS, 'sandbox');
const WHY =
  'Commands cannot run in a sandbox here, so Auto is not available. The sandbox is turned off by LOOPWIRE_SANDBOX=off.';

describe('Loopwire in the VS Code workbench: no sandbox here', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  const given = process.env['LOOPWIRE_SANDBOX'];
  before(() => {
    process.env['LOOPWIRE_SANDBOX'] = 'off';
  });
  after(() => {
    if (given === undefined) delete process.env['LOOPWIRE_SANDBOX'];
    else process.env['LOOPWIRE_SANDBOX'] = given;
  });
  useWorkbench((started) => (workbench = started), {
    artifacts: SANDBOX_ARTIFACTS,
    userSettings: { 'loopwire.approval': undefined },
  });

  it('says once why, keeps Ask, and shows Auto disabled with the reason', async () => {
    const panel = await workbench.panel();
    const toast = workbench.page.locator('.notifications-toasts .notification-toast', { hasText: WHY });
    await toast.waitFor({ timeout: 30_000 });
    const approvals = panel.getByRole('combobox', { name: 'Approvals', exact: true });
    await until('the pickers', async () => ((await approvals.inputValue()) === 'ask' ? true : undefined), 30_000);
    const auto = approvals.locator('option[value="auto"]');
    assert.equal(await auto.textContent(), 'Auto (no sandbox here)');
    assert.equal(await auto.getAttribute('title'), WHY);
    assert.notEqual(await auto.getAttribute('disabled'), null, 'Auto cannot be picked');
    await workbench.screenshot('no-sandbox');

    // A new extension host (Developer: Reload Window) shows the panel again: it is not said a second time.
    await workbench.reload();
    const again = (await workbench.panel()).getByRole('combobox', { name: 'Approvals', exact: true });
    await until('the pickers again', async () => ((await again.inputValue()) === 'ask' ? true : undefined), 30_000);
    // The notice goes with the pickers' first state (composerPickers.ts refresh): a marker through the extension
    // host after it proves that a notice, were one sent, has come.
    await hostMarker(workbench.page, (title) => workbench.command(title));
    assert.equal(await toast.count(), 0, 'said once');
  });
});
