import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoopwireApi } from '../../../src/extension/api';

// What the in-host suites share: the activated extension's API and the fixture workspace folder.

export const fixture = (): string => {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('the integration host was started without a workspace folder');
  return folder;
};

export async function loopwire(): Promise<LoopwireApi> {
  const extension = vscode.extensions.getExtension<LoopwireApi>('loopwire.loopwire');
  if (!extension) throw new Error('the Loopwire extension is not installed in this host');
  return extension.activate();
}

/**
 * Whether a spy this suite sets on the `vscode` API sees the extension's calls. VS Code gives each extension
 * its own API object, chosen by the path of the module that requires it: the suite's files share the
 * extension's only when they lie inside its folder (the checkout's run), not beside an unpacked .vsix.
 */
export function spiesReachTheExtension(): boolean {
  const folder = vscode.extensions.getExtension('loopwire.loopwire')?.extensionPath;
  return folder !== undefined && !path.relative(folder, __dirname).startsWith('..');
}

/** Writes `text` to `rel` under the fixture folder, making folders; returns its URI. */
export async function writeFixture(rel: string, text: string): Promise<vscode.Uri> {
  const file = path.join(fixture(), ...rel.split('/'));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return vscode.Uri.file(file);
}

export const readFixture = (rel: string) => fs.readFile(path.join(fixture(), ...rel.split('/')), 'utf8');

/** The polling helper every suite shares (test/unit/support/eventually.ts). */
export { eventually } from '../../unit/support/eventually';
