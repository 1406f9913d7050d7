import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { loopwire, readFixture, writeFixture } from './support';

// The agent edits like the editor: it reads the user's unsaved text, edits the buffer through one
// WorkspaceEdit (one undo step), never saves over the user's pending changes, and never takes focus.

const ORIGINAL = 'line one\nline two\nline three\n';
const patch = (path: string) =>
  `*** Begin Patch\n*** Update File: ${path}\n@@\n line one\n-line two\n+line 2\n line three\n*** End Patch\n`;

describe('VS Code adapter: the user’s editor', () => {
  it('reads unsaved text, edits the dirty buffer, keeps the user’s text, one undo reverts only the agent', async () => {
    const api = await loopwire();
    const uri = await writeFixture('editor/dirty.txt', ORIGINAL);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await editor.edit((builder) => builder.insert(new vscode.Position(3, 0), 'typed by the user\n'));
    const typed = ORIGINAL + 'typed by the user\n';
    const selection = editor.selection;
    assert.equal(editor.document.isDirty, true);

    const read = await api.tools.run('read_file', { path: 'editor/dirty.txt' });
    assert.equal(read.ok, true, read.output);
    assert.match(read.output, /typed by the user/, 'the model reads what the user sees');

    const edited = await api.tools.run('apply_patch', { input: patch('editor/dirty.txt') });
    assert.equal(edited.ok, true, edited.output);
    assert.equal(editor.document.getText(), 'line one\nline 2\nline three\ntyped by the user\n');
    assert.equal(editor.document.isDirty, true, 'a buffer with the user’s unsaved changes is not saved');
    assert.equal(await readFixture('editor/dirty.txt'), ORIGINAL, 'the file on disk is untouched');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString(), 'focus stays');
    assert.ok(editor.selection.isEqual(selection), 'the cursor did not move');

    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), typed, 'one undo reverts exactly the agent’s edit');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('search sees the unsaved text of open files, not what is on disk for them', async () => {
    const api = await loopwire();
    const uri = await writeFixture('editor/search.txt', 'token-on-disk\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await editor.edit((builder) => builder.replace(new vscode.Range(0, 0, 0, 13), 'token-in-buffer'));
    const unsaved = await api.tools.run('search_text', { query: 'token-in-buffer' });
    assert.match(unsaved.output, /^editor\/search\.txt:1: token-in-buffer$/m);
    const saved = await api.tools.run('search_text', { query: 'token-on-disk', include: 'editor/**' });
    assert.doesNotMatch(saved.output, /editor\/search\.txt/, 'the saved text is not what the user sees');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('saves a file that was clean, so tasks see it; opens no editor for it', async () => {
    const api = await loopwire();
    await writeFixture('editor/clean.txt', ORIGINAL);
    const before = vscode.window.visibleTextEditors.map((e) => e.document.uri.toString());
    const edited = await api.tools.run('apply_patch', { input: patch('editor/clean.txt') });
    assert.equal(edited.ok, true, edited.output);
    assert.equal(await readFixture('editor/clean.txt'), 'line one\nline 2\nline three\n');
    assert.deepEqual(
      vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()),
      before,
      'no editor was brought to the front',
    );
  });

  it('refuses an edit planned on text the user has changed since, and writes nothing', async () => {
    const api = await loopwire();
    const uri = await writeFixture('editor/race.txt', ORIGINAL);
    assert.equal((await api.tools.run('read_file', { path: 'editor/race.txt' })).ok, true);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await editor.edit((builder) => builder.replace(new vscode.Range(1, 0, 1, 8), 'line TWO, retyped'));
    const edited = await api.tools.run('apply_patch', { input: patch('editor/race.txt') });
    assert.equal(edited.ok, false);
    assert.match(edited.output, /changed|re-read|read it again/i);
    assert.equal(editor.document.getText(), 'line one\nline TWO, retyped\nline three\n');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
