import type { FileSnapshot } from '../edit';
import type { Workspace, WorkspaceFile } from '../workspace';
import type { ReadLedger } from './readLedger';

/** The files an edit names, by the path the edit gives; absent ones are missing files. */
export interface Snapshots {
  /** As they are now. */
  current: Map<string, WorkspaceFile>;
  /** What to plan the edit on: the text the model last saw where the file changed since, else the current text. */
  planOn: Map<string, FileSnapshot>;
}

export async function readSnapshots(
  workspace: Workspace,
  reads: ReadLedger,
  paths: Iterable<string>,
): Promise<Snapshots> {
  const current = new Map<string, WorkspaceFile>();
  const planOn = new Map<string, FileSnapshot>();
  for (const given of new Set(paths)) {
    const file = await workspace.tryReadFile(given);
    if (!file) continue;
    current.set(given, file);
    const seen = reads.isCurrent(file) ? undefined : reads.seen(file.path);
    planOn.set(given, seen ?? { text: file.text, version: file.version });
  }
  return { current, planOn };
}
