import { t } from '@vscode/l10n';
import { Transcript } from '../../../agent';
import type { ChatEntry } from '../../../protocol/chatView';
import type { ToolRegistry } from '../../../tools';
import { type ChatSnapshot, currentChat, loadSnapshot } from './chatSnapshot';
import { messageOf } from '../messageOf';
import { sessionFile } from './sessionHistory';
import { settledSubagent, withSubagents } from './subagentHistory';
import { transcriptEntries } from './transcriptEntries';

// A chat reopened (after its window went away, or from History): its transcript, and what the panel shows of
// it — its snapshot's entries as they stand once nothing streams or waits any more, else what its transcript
// holds — and whether its task was cut short.

/** A transcript that stopped mid-task: a prompt or a tool's answer without a response, or calls without answers. */
export function needsResume(transcript: Transcript): boolean {
  if (transcript.pendingCalls().length > 0) return true;
  const last = transcript.items.at(-1) as { type?: unknown; role?: unknown } | undefined;
  if (!last) return false;
  return !(last.type === 'message' || last.type === undefined) || last.role !== 'assistant';
}

const CUT_SHORT = 'Interrupted: the window closed before this call finished.';

/** Entries saved mid-task, as they are after it: nothing streams or waits any more. */
export function settled(entries: readonly ChatEntry[]): ChatEntry[] {
  return entries.map((entry) => {
    if ((entry.kind === 'assistant' || entry.kind === 'thinking') && entry.streaming)
      return { ...entry, streaming: false };
    if (entry.kind === 'user' && entry.queued) {
      const { queued: _queued, ...rest } = entry;
      return { ...rest, text: `${rest.text}\n\n*${t('(Not sent: the window closed while it waited.)')}*` };
    }
    if (entry.kind !== 'tool') return entry;
    // A subagent that was running stopped with the window (subagentHistory.ts).
    const nested = entry.subagent ? { subagent: settledSubagent(entry.subagent, CUT_SHORT) } : {};
    if (['streaming', 'approval', 'running'].includes(entry.status)) {
      const { ask: _ask, ...rest } = entry;
      return { ...rest, ...nested, status: 'failed' as const, output: entry.output ?? CUT_SHORT };
    }
    return entry.subagent ? { ...entry, ...nested } : entry;
  });
}

/** A past chat, read to be shown again. */
export interface ReopenedChat {
  transcript: Transcript;
  entries: ChatEntry[];
  snapshot: ChatSnapshot | undefined;
  /** Its task was running when the window went away, and never ended: Resume continues it. */
  interrupted: boolean;
}

/** Chat `id` of the chats in `dir`: its snapshot when there is one (a problem reading it is logged). */
export function readChat(dir: string, id: string, tools: ToolRegistry, log: (line: string) => void): ReopenedChat {
  const transcript = Transcript.load(sessionFile(dir, id));
  const { snapshot, problem } = loadSnapshot(dir, id);
  if (problem) log(`chat panel: ${problem}`);
  return {
    transcript,
    entries: snapshot
      ? settled(snapshot.entries)
      : withSubagents(transcriptEntries(transcript.items, tools, transcript.notes), transcript.subagents, tools),
    snapshot,
    interrupted: snapshot?.running === true && needsResume(transcript),
  };
}

/**
 * The chat the panel showed before this window reloaded, if any, reopened by `restore`; one that cannot be
 * read is said in the log and `forget` drops it. No `dir`: none (a chat opened beside another starts empty).
 */
export async function restoreCurrent(
  dir: string | undefined,
  restore: (id: string) => Promise<void>,
  log: (line: string) => void,
  forget: () => void,
): Promise<void> {
  const id = dir === undefined ? undefined : currentChat(dir);
  if (id === undefined) return;
  try {
    await restore(id);
  } catch (error) {
    log(`chat panel: could not reopen the last chat: ${messageOf(error)}`);
    forget();
  }
}
