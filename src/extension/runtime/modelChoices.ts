import * as vscode from 'vscode';
import { type ModelOptions, modelOptionsFrom } from '../../agent';
import { readSettings } from '../settings/settings';

// The model and its options the window's agents send, read before every request so that a model or effort
// picked in the composer goes with the next one. The agent asks several times a turn (the request, the tool
// outputs' budget, whether the model steers natively), and each read of VS Code's configuration and its
// checks cost ~0.1–0.3 ms on a busy host: most of a turn's client overhead in the panel bench (0.8 ms a turn).
// So the answer is kept until a `loopwire` setting, the folders or the workspace's trust change: VS Code
// fires those events as it takes the new values in, so no read could have seen them sooner.

export interface ModelChoices {
  model: string | undefined;
  modelOptions: ModelOptions;
}

let kept: ModelChoices | undefined;
let watching: vscode.Disposable[] | undefined;

/** The window's model and options now (its first folder's settings, as the chat's agent reads them). */
export function modelChoices(): ModelChoices {
  watching ??= [
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('loopwire')) kept = undefined;
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => (kept = undefined)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => (kept = undefined)),
  ];
  if (kept) return kept;
  const now = readSettings(vscode.workspace.workspaceFolders?.[0]);
  kept = { model: now.model, modelOptions: modelOptionsFrom(now.modelOptions) };
  return kept;
}
