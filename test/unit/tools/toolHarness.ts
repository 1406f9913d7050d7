import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReadLedger, type ToolContext, type ToolResult, runToolCall } from '../../../src/tools';
import { findOnPath } from '../../../src/workspace/node/findExecutable';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';

// A throwaway workspace on disk for one test, with the Node adapter over it and a tool-call shortcut.

export interface ToolBench {
  root: string;
  /** A folder next to the workspace, outside it. */
  outside: string;
  workspace: NodeWorkspace;
  context: ToolContext;
  run: (name: string, args?: Record<string, unknown>) => Promise<ToolResult>;
  read: (rel: string) => Promise<string | undefined>;
  write: (rel: string, content: string | Buffer) => Promise<void>;
}

const made: string[] = [];
after(async () => {
  for (const dir of made.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

export async function toolBench(files: Record<string, string | Buffer>, ripgrep?: string | null): Promise<ToolBench> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'loopwire-tools-')));
  made.push(base);
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  await fs.mkdir(root);
  await fs.mkdir(outside);
  const write = async (rel: string, content: string | Buffer) => {
    const file = path.join(root, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  };
  for (const [rel, content] of Object.entries(files)) await write(rel, content);
  const workspace = await NodeWorkspace.open(root, ripgrep === undefined ? {} : { ripgrep });
  const context: ToolContext = { workspace, reads: new ReadLedger() };
  return {
    root,
    outside,
    workspace,
    context,
    write,
    run: (name, args = {}) => runToolCall({ kind: 'function', name, arguments: JSON.stringify(args) }, context),
    read: (rel) => fs.readFile(path.join(root, rel), 'utf8').catch(() => undefined),
  };
}

/** The rg binary the ripgrep tests need; CI installs Debian's ripgrep, so its absence is a failure, not a skip. */
export async function requireRipgrep(): Promise<string> {
  const rg = await findOnPath('rg');
  if (!rg) throw new Error('ripgrep (rg) is not on PATH: install it (Debian: apt-get install ripgrep; .ci/run does).');
  return rg;
}
