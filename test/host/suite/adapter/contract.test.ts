import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { VscodeWorkspace } from '../../../../src/workspace/vscode/vscodeWorkspace';
import { writeContractFixture } from '../../../contract/contractFixture';
import { workspaceContract } from '../../../contract/workspaceContract';
import { fixture } from '../support';

// The Workspace contract suite — the one the Node adapter passes in plain mocha — on the VS Code adapter,
// in the real extension host, on a fresh copy of the contract fixture for every test.

let runs = 0;

async function openVscode() {
  const base = path.join(fixture(), '.contract', `run-${++runs}`);
  const root = path.join(base, 'workspace');
  await writeContractFixture(root, path.join(base, 'outside'));
  const workspace = await VscodeWorkspace.open(vscode.Uri.file(root), { diagnosticsSettleMs: 300 });
  return {
    workspace,
    write: (rel: string, text: string) => fs.writeFile(path.join(root, rel), text),
    read: (rel: string) => fs.readFile(path.join(root, rel), 'utf8').catch(() => undefined),
  };
}

workspaceContract({ name: 'VS Code adapter', open: openVscode });
