import type { Transcript } from '../../agent';
import type { ChatEntry } from '../../protocol/chatView';

// A chat reopened after its window went away (a reload): whether its task was cut short, and its entries as
// they stand once nothing streams or waits any more.

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
      return { ...rest, text: `${rest.text}\n\n*(Not sent: the window closed while it waited.)*` };
    }
    if (entry.kind === 'tool' && ['streaming', 'approval', 'running'].includes(entry.status)) {
      const { ask: _ask, ...rest } = entry;
      return { ...rest, status: 'failed' as const, output: entry.output ?? CUT_SHORT };
    }
    return entry;
  });
}
