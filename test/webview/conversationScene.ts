import type { ChatEntry, ComposerChoices, HostMessage, HunkState, ToolEntry } from '../../src/protocol/chatView';
import type { Plan } from '../../src/protocol/plan';
import type { QueuedPrompt } from '../../src/protocol/promptQueue';
import type { Panel } from './panel';
import { EDITED, readOriginal, recordedSession } from './recordSession';
import { hostSession } from './replay';

// The panel with everything a real conversation puts on it at once, for the checks that look at the whole
// page (accessibility, keyboard): the recorded session as the host's ChatModel ends it (the answer in
// markdown, read_file's card, apply_patch's review card with its diff and a hunk in each state), then a
// patch refused on its file, an approval waiting for the user, a stopped task's notice with its remedy, the
// plan's checklist, the queue's chips, an attached file, the project instructions, the composer's pickers,
// the context meter past its warning mark and a banner.

export const CHOICES: ComposerChoices = {
  model: 'gpt-5.5',
  models: ['gpt-5.5', 'gpt-4.1'],
  effort: 'default',
  efforts: ['default', 'low', 'medium', 'high'],
  defaultEffort: 'medium',
  approval: 'ask',
};

const PLAN: Plan = {
  explanation: 'Tidy the inventory module without changing what valid input does.',
  plan: [
    { step: 'Read src/inventory.ts', status: 'completed' },
    { step: 'Guard restock and sell', status: 'in_progress' },
    { step: 'Run the tests', status: 'pending' },
  ],
};

const QUEUE: QueuedPrompt[] = [
  { id: 'q1', text: 'Then add a test for byPrice' },
  { id: 'q2', text: 'And document lowStock', attachments: [{ kind: 'file', path: 'README.md' }] },
];

const APPROVAL: ToolEntry = {
  kind: 'tool',
  id: 'call_task',
  turn: 4,
  name: 'run_task',
  summary: 'npm: test',
  status: 'approval',
  ask: { action: 'Run task `npm: test`', detail: 'node --test', effect: 'task', rule: 'npm test' },
};

/** A patch refused before it ran: its card says why on the file. */
const REFUSED: ToolEntry = {
  kind: 'tool',
  id: 'call_refused',
  turn: 3,
  name: 'apply_patch',
  summary: 'src/cart.js',
  status: 'failed',
  output: 'Hunk 1 does not match src/cart.js at line 12: the file changed since it was read.',
  diff: [
    {
      path: 'src/cart.js',
      op: 'update',
      hunks: [],
      pending: false,
      error: 'Hunk 1 does not match the file at line 12: the file changed since it was read.',
    },
  ],
};

const NOTICE: ChatEntry = {
  kind: 'notice',
  id: 'notice:1',
  level: 'error',
  text: 'The endpoint refused the API key (401).',
  remedy: 'setApiKey',
};

let entries: Promise<ChatEntry[]> | undefined;

/** The recorded session's entries as the host's ChatModel ends it, computed once per process. */
export function conversationEntries(): Promise<ChatEntry[]> {
  entries ??= recordedSession()
    .then((session) => hostSession(session.events, readOriginal))
    .then((host) => {
      const review = host.entries.find((entry) => entry.kind === 'tool' && entry.name === 'apply_patch');
      if (!review || review.kind !== 'tool' || !review.diff?.some((file) => file.path === EDITED))
        throw new Error('the recorded session has no review card for its patch');
      // The user has been at it: one hunk rejected, one accepted, one edited since, so each state's colours show.
      const marked: HunkState[] = ['rejected', 'accepted', 'edited'];
      const diff = review.diff.map((file) => ({
        ...file,
        states: Object.fromEntries(file.hunks.map((hunk, i) => [hunk.id, marked[i] ?? 'applied'])),
      }));
      return host.entries.map((entry) => (entry === review ? { ...review, diff } : entry));
    });
  return entries;
}

/** The host's messages for the whole scene. */
export async function conversationMessages(): Promise<HostMessage[]> {
  return [
    {
      type: 'state',
      sessionId: 'scene',
      entries: [...(await conversationEntries()), REFUSED, APPROVAL, NOTICE],
      hasOlder: false,
      running: true,
      banner: { kind: 'reconnecting', text: 'Connection lost: reconnecting (attempt 2 of 5)…', retry: false },
      // Past the warning threshold, so the meter shows its warning colour.
      context: { tokens: 231_000, window: 272_000 },
      plan: PLAN,
    },
    { type: 'choices', choices: CHOICES },
    {
      type: 'instructions',
      instructions: {
        files: [{ label: 'AGENTS.md', path: '/repo/AGENTS.md', cut: false }],
        sent: true,
        untrusted: false,
      },
    },
    { type: 'queue', items: QUEUE },
    { type: 'attach', attachments: [{ kind: 'file', path: 'src/inventory.ts' }] },
  ];
}

/** The empty chat: the welcome with its examples and backend line, and the composer with its pickers. */
export const EMPTY_CHAT: HostMessage[] = [
  {
    type: 'state',
    sessionId: 'empty',
    entries: [],
    hasOlder: false,
    running: false,
    banner: null,
    backend: { label: 'built-in offline backend', offline: true },
  },
  { type: 'choices', choices: CHOICES },
];

/** Puts the whole conversation on the panel and waits until it has rendered. */
export async function showConversation(panel: Panel): Promise<void> {
  panel.postAll(await conversationMessages());
  await panel.delivered(4);
  await panel.clearPosted();
}
