import type { ChatEntry } from '../../../protocol/chatView';
import type { ChatState, ChatTab } from '../../../protocol/chatTabs';
import type { TaskEnd } from '../chatActivity';
import { firstLine } from '../history/promptTitle';

// What the panel's list of chats says of each (chatDeck.ts): its title (its first prompt's first line), its
// state, and its last line — what the model last said, the call it runs, or why it stopped — on one line.

/** At most this much of a title or a last line goes in the list (the page ellipsizes what does not fit). */
const CLIP = 200;

const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > CLIP ? `${line.slice(0, CLIP - 1)}…` : line;
};

/** What the deck knows of a chat beyond its entries. */
export interface TabFacts {
  id: string;
  entries: readonly ChatEntry[];
  busy: boolean;
  /** Its task waits for a free slot. */
  queued: boolean;
  /** Calls waiting for the user's Allow / Skip. */
  waiting: number;
  /** How its last task ended, if one did. */
  ended: TaskEnd['status'] | undefined;
}

export function tabOf(facts: TabFacts): ChatTab {
  const first = facts.entries.find((entry) => entry.kind === 'user');
  return {
    id: facts.id,
    title: first?.kind === 'user' ? oneLine(firstLine(first.text)) : '',
    state: stateOf(facts),
    last: lastLine(facts.entries),
  };
}

function stateOf(facts: TabFacts): ChatState {
  if (facts.waiting > 0) return 'waiting';
  if (facts.queued) return 'queued';
  if (facts.busy) return 'running';
  switch (facts.ended) {
    case undefined:
      return 'new';
    case 'completed':
      return 'done';
    case 'failed':
      return 'failed';
    default:
      return 'stopped';
  }
}

/** The newest entry that says something since the last prompt: an answer's last line, a call's summary, a notice. */
function lastLine(entries: readonly ChatEntry[]): string {
  for (let at = entries.length - 1; at >= 0; at--) {
    const entry = entries[at];
    if (!entry) continue;
    if (entry.kind === 'assistant' || entry.kind === 'notice') {
      const lines = entry.text.split('\n').filter((line) => line.trim() !== '');
      const last = lines.at(-1);
      if (last !== undefined) return oneLine(last);
    } else if (entry.kind === 'tool') return oneLine(`${entry.name} ${entry.summary}`);
    // Nothing said since the prompt: the page shows the state in words rather than the title again.
    else if (entry.kind === 'user') return '';
  }
  return '';
}
