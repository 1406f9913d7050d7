import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatHost } from '../../../src/extension/chat/chatController';
import { backendInfo, windowChatHost } from '../../../src/extension/chat/window/windowChatHost';
import { BEFORE_SCHEME } from '../../../src/extension/review/beforeSide';
import { TaskQueue } from '../../../src/extension/runtime/taskQueue';
import { VscodeWorkspace } from '../../../src/workspace/vscode/vscodeWorkspace';
import { eventually, fixture, writeFixture } from './support';

// The chat's backend in the window, on its own (the panel's messages reach it through the controller): a
// path clicked in the panel opens at its line, the diff editor's "before" side leaves nothing in Problems,
// and the empty chat can say which backend it talks to.

const BROKEN = '{\n  "rate": 5,\n  "free": ,\n}\n';

/**
 * Once the language service has reported on a change of `control` made now. It reports on documents in the
 * order they open and change, so by then it has said whatever it would say of a before side opened earlier:
 * a wait on its word, not on a clock. (Each call moves the control's error a line down, and saves it.)
 */
async function controlReportedAgain(control: vscode.Uri): Promise<void> {
  const was = JSON.stringify(vscode.languages.getDiagnostics(control));
  const edit = new vscode.WorkspaceEdit();
  edit.insert(control, new vscode.Position(0, 0), '\n');
  assert.ok(await vscode.workspace.applyEdit(edit), 'the control file edited');
  await (await vscode.workspace.openTextDocument(control)).save();
  await eventually(() => JSON.stringify(vscode.languages.getDiagnostics(control)) !== was, {
    timeoutMs: 20_000,
    message: 'the JSON service to report the control file again',
  });
}

function windowBackend(subscriptions: vscode.Disposable[]) {
  const workspace = VscodeWorkspace.open(vscode.Uri.file(fixture()));
  const unused = () => Promise.reject(new Error('not used by this test'));
  const backend: ChatHost = windowChatHost(
    {
      workspace: () => workspace,
      agent: unused,
      queue: new TaskQueue(),
      newTranscript: () => {
        throw new Error('not used by this test');
      },
      sessionsDir: fixture(),
      approvalMode: () => 'all',
      log: () => undefined,
    },
    subscriptions,
  );
  const missing = () => new Error('the window backend has no such member');
  return {
    openDiff: (file: string, text: string, title: string) => backend.openDiff(file, text, title),
    openFile: (file: string, line?: number, column?: number) =>
      backend.openFile?.(file, line, column) ?? Promise.reject(missing()),
    backendInfo: () => {
      const info = backend.backendInfo?.();
      if (!info) throw missing();
      return info;
    },
  };
}

/** The "before" document of the diff editor opened last for `path`. */
function beforeOf(path: string): vscode.TextDocument {
  const inputs = vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.input));
  const diff = inputs
    .filter((input): input is vscode.TabInputTextDiff => input instanceof vscode.TabInputTextDiff)
    .filter((input) => input.original.scheme === BEFORE_SCHEME && input.original.path === `/${path}`)
    .at(-1);
  assert.ok(diff, `no diff editor shows the before side of ${path}`);
  const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === diff.original.toString());
  assert.ok(document, 'the before side is an open document');
  return document;
}

describe('chat backend in the window', function () {
  this.timeout(60_000);
  const subscriptions: vscode.Disposable[] = [];
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const disposable of subscriptions) disposable.dispose();
  });

  it('opens a clicked path at its line and column, and refuses paths outside or missing', async () => {
    const backend = windowBackend(subscriptions);
    await writeFixture('open/target.ts', Array.from({ length: 12 }, (_, i) => `export const v${i} = ${i};`).join('\n'));
    await backend.openFile('open/target.ts', 5, 8);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.equal(editor.document.uri.fsPath, vscode.Uri.file(`${fixture()}/open/target.ts`).fsPath);
    assert.deepEqual([editor.selection.active.line, editor.selection.active.character], [4, 7]);
    // A line past the end goes to the last line, not an error.
    await backend.openFile('open/target.ts', 99);
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, 11);
    await assert.rejects(backend.openFile('../elsewhere.ts', 1), /elsewhere\.ts is not in this workspace/);
    await assert.rejects(backend.openFile('open/missing.ts'), /open\/missing\.ts does not exist/);
  });

  it('shows the before side of the diff without diagnostics, with its language when it would have none', async () => {
    const backend = windowBackend(subscriptions);
    await writeFixture('config/shipping.json', '{\n  "rate": 5,\n  "free": 50\n}\n');
    // The control: the JSON service is running, and reports this text in a file within the wait below.
    const control = await writeFixture('config/control.json', BROKEN);
    await vscode.window.showTextDocument(control, { preview: false, preserveFocus: true });
    await eventually(() => vscode.languages.getDiagnostics(control).length > 0, {
      timeoutMs: 20_000,
      message: 'the JSON service to report the control file',
    });

    await backend.openDiff('config/shipping.json', BROKEN, 'shipping.json (before ↔ now)');
    const broken = beforeOf('config/shipping.json');
    assert.equal(broken.getText(), BROKEN);
    await controlReportedAgain(control);
    assert.deepEqual(vscode.languages.getDiagnostics(broken.uri), [], 'nothing in Problems from the before side');
    assert.equal(broken.languageId, 'plaintext', 'JSON that does not parse is shown as plain text');

    const valid = '{\n  "rate": 4,\n  "free": 50\n}\n';
    await backend.openDiff('config/shipping.json', valid, 'shipping.json (before ↔ now)');
    const clean = beforeOf('config/shipping.json');
    assert.equal(clean.getText(), valid);
    await controlReportedAgain(control);
    assert.equal(clean.languageId, 'json', 'a before side nothing reports on keeps its language and colours');
    assert.deepEqual(vscode.languages.getDiagnostics(clean.uri), []);
  });

  it('turns a before side to plain text as soon as a language service reports on it', async () => {
    const backend = windowBackend(subscriptions);
    // Parses, but TypeScript's schema for tsconfig.json says `strict` is a boolean.
    const before = '{\n  "compilerOptions": { "strict": "yes" }\n}\n';
    const control = await writeFixture('schema/control/tsconfig.json', before);
    await vscode.window.showTextDocument(control, { preview: false, preserveFocus: true });
    await eventually(() => vscode.languages.getDiagnostics(control).length > 0, {
      timeoutMs: 20_000,
      message: 'the schema warning on the control tsconfig.json',
    });
    await writeFixture('schema/tsconfig.json', '{\n  "compilerOptions": { "strict": true }\n}\n');
    await backend.openDiff('schema/tsconfig.json', before, 'tsconfig.json (before ↔ now)');
    const document = beforeOf('schema/tsconfig.json');
    await eventually(() => document.languageId === 'plaintext', { timeoutMs: 10_000, message: 'plain text' });
    await eventually(() => vscode.languages.getDiagnostics(document.uri).length === 0, {
      timeoutMs: 10_000,
      message: 'the before side’s diagnostics to go',
    });
  });

  it('says which backend the chat talks to', () => {
    const backend = windowBackend(subscriptions);
    assert.deepEqual(backend.backendInfo(), { label: 'built-in offline backend', offline: true });
    assert.deepEqual(backendInfo('https://api.openai.com/v1'), { label: 'api.openai.com', offline: false });
    assert.deepEqual(backendInfo('http://localhost:8080/v1'), { label: 'localhost:8080', offline: false });
  });
});
