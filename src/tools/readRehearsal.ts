import { hashText } from '../edit';
import type { Workspace } from '../workspace';
import { readFileTool } from './readFile';
import { ReadLedger } from './readLedger';
import { runToolCall } from './runToolCall';
import type { ToolContext } from './tool';
import type { ToolRegistry } from './toolRegistry';

// read_file run ahead of a task, its answers thrown away, so that a task's first reads find its code compiled
// and optimised (issue 51: the agent's rehearsal at start, src/agent/turnRehearsal.ts). Here because it names
// the tool: the agent asks for "the read", never for a tool by name.

/** The tool the rehearsal calls, where the registry offers it. */
export const REHEARSED_READ = readFileTool.name;

/** Files most workspaces have, read (and thrown away) to run the workspace's own read once; none is needed. */
export const READ_CANDIDATES = ['README.md', 'package.json', 'AGENTS.md', '.gitignore'];

/** Reads of a made-up module (~10 KB) repeated: V8 optimises a function only after a few runs. */
const HOT_READS = 4;
const MODULE_TEXT = Array.from({ length: 250 }, (_, i) => `export const value${i} = ${i}; // a line of text\n`).join(
  '',
);

/** `{ path }` arguments of the rehearsed read, as a model sends them. */
export const readArguments = (path: string): string => JSON.stringify({ path });

/**
 * read_file's own path — its arguments, its answer's lines and footer, the ledger, the text's hash — run
 * until optimised on a made-up module served by a stand-in for the workspace's read (the second and third
 * reads of a task were still 1–2 ms slower than the later ones, interpreted); then once on the workspace
 * itself, on the first of READ_CANDIDATES that exists, with a ledger of its own. `visit` is told each path
 * read on the workspace; `hot` false skips the made-up reads (code already optimised). False where the
 * registry has no read_file.
 */
export async function rehearseRead(
  workspace: Workspace,
  registry: ToolRegistry,
  visit: (path: string) => void = () => undefined,
  hot = true,
): Promise<boolean> {
  if (!registry.get(REHEARSED_READ)) return false;
  if (hot) await hotReads(workspace, registry);
  const context: ToolContext = { workspace, reads: new ReadLedger() };
  for (const path of READ_CANDIDATES) {
    const call = { kind: 'function', name: REHEARSED_READ, arguments: readArguments(path) } as const;
    const result = await runToolCall(call, context, registry);
    visit(path);
    if (result.ok) break;
  }
  return true;
}

/** read_file on a made-up module, HOT_READS times, from a stand-in for the workspace's read. */
async function hotReads(workspace: Workspace, registry: ToolRegistry): Promise<void> {
  const served: Workspace = Object.create(workspace) as Workspace;
  served.readFile = (path) => Promise.resolve({ path, text: MODULE_TEXT, version: hashText(MODULE_TEXT) });
  const hot: ToolContext = { workspace: served, reads: new ReadLedger() };
  for (let i = 0; i < HOT_READS; i++)
    await runToolCall(
      { kind: 'function', name: REHEARSED_READ, arguments: readArguments('src/module.ts') },
      hot,
      registry,
    );
}
