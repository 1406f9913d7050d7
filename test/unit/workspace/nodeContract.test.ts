import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { writeContractFixture } from '../../contract/contractFixture';
import { workspaceContract } from '../../contract/workspaceContract';

const made: string[] = [];
after(async () => {
  for (const dir of made) await fs.rm(dir, { recursive: true, force: true });
});

async function openNode(ripgrep: string | null | undefined) {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'loopwire-contract-'));
  made.push(base);
  const root = path.join(base, 'workspace');
  await writeContractFixture(root, path.join(base, 'outside'));
  const workspace = await NodeWorkspace.open(root, ripgrep === undefined ? {} : { ripgrep });
  return {
    workspace,
    write: (rel: string, text: string) => fs.writeFile(path.join(root, rel), text),
    read: (rel: string) => fs.readFile(path.join(root, rel), 'utf8').catch(() => undefined),
  };
}

workspaceContract({ name: 'Node adapter (ripgrep)', open: () => openNode(undefined) });
workspaceContract({ name: 'Node adapter (JavaScript search)', open: () => openNode(null) });
