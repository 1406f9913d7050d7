import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CheckpointJournal, journaledWorkspace, restoreCheckpoint } from '../../../src/agent';
import { ReadLedger, runToolCall } from '../../../src/tools';
import { VscodeWorkspace } from '../../../src/workspace/vscode/vscodeWorkspace';
import { fixture, readFixture, writeFixture } from './support';

// Checkpoints on the VS Code adapter: the agent's edit tools write through the journaled port (a
// WorkspaceEdit), the user types in an editor without saving, and Restore leaves that dirty buffer as the
// user has it while it puts back the file nobody touched since — in one WorkspaceEdit, one undo step.

describe('checkpoints in VS Code: a dirty buffer is the user’s, Restore is one undo step', function () {
  this.timeout(30_000);

  it('keeps the unsaved edit, restores the other file, and Undo takes the Restore back', async () => {
    const typed = await writeFixture('checkpoints/typed.js', 'const a = 1;\n');
    const clean = await writeFixture('checkpoints/clean.js', 'const b = 1;\n');
    const workspace = await VscodeWorkspace.open(vscode.Uri.file(fixture()), { diagnosticsSettleMs: 0 });
    const journal = new CheckpointJournal('host-checkpoints');
    const tools = { workspace: journaledWorkspace(workspace, journal), reads: new ReadLedger() };
    journal.begin('user:1', 0);
    const patch = [
      '*** Begin Patch',
      '*** Update File: checkpoints/typed.js',
      '@@',
      '-const a = 1;',
      '+const a = 2;',
      '*** Update File: checkpoints/clean.js',
      '@@',
      '-const b = 1;',
      '+const b = 2;',
      '*** Add File: checkpoints/made.js',
      '+made by the agent',
      '*** End Patch',
    ].join('\n');
    const result = await runToolCall(
      { kind: 'function', name: 'apply_patch', arguments: JSON.stringify({ input: patch }) },
      tools,
    );
    assert.ok(result.ok, result.output);

    // The user types into typed.js and does not save.
    const typedDoc = await vscode.workspace.openTextDocument(typed);
    const editor = await vscode.window.showTextDocument(typedDoc);
    await editor.edit((edit) => edit.insert(new vscode.Position(1, 0), '// the user’s unsaved line\n'));
    assert.equal(typedDoc.isDirty, true);

    const done = await restoreCheckpoint(journal, 'user:1', workspace);
    assert.deepEqual(
      done.kept.map((file) => file.path),
      ['checkpoints/typed.js'],
    );
    assert.equal(typedDoc.getText(), 'const a = 2;\n// the user’s unsaved line\n', 'the dirty buffer is untouched');
    assert.equal(typedDoc.isDirty, true);
    const cleanDoc = await vscode.workspace.openTextDocument(clean);
    assert.equal(cleanDoc.getText(), 'const b = 1;\n');
    await assert.rejects(readFixture('checkpoints/made.js'), /ENOENT/, 'the file the agent added is gone');

    // One undo step in the restored file's editor brings back what the agent wrote there.
    await vscode.window.showTextDocument(cleanDoc);
    await vscode.commands.executeCommand('undo');
    assert.equal(cleanDoc.getText(), 'const b = 2;\n');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.window.showTextDocument(typedDoc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
