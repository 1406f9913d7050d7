import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentEvent } from '../../src/agent';
import { ChatModel } from '../../src/extension/chat/chatModel';
import type { ReadText } from '../../src/extension/chat/entries/liveDiff';
import type { ChatEntry, HostMessage } from '../../src/protocol/chatView';
import { PROMPT } from './recordSession';

// Feeding a recorded event stream into the host's ChatModel at a watchable pace: a few milliseconds per
// event, so the panel renders frame by frame (per-frame text, the live diff's 50 ms previews) as it would
// in VS Code, with a hook after each event for the test to look at the page.

/** How the ChatModel reads a file the edit touches: from this folder, as the workspace was before it. */
export function readFrom(dir: string): ReadText {
  return (file) =>
    fs.promises.readFile(path.join(dir, file), 'utf8').then(
      (text) => text,
      () => undefined,
    );
}

/** Milliseconds to wait after an event: enough for a frame or a throttled preview between some of them. */
export function paceOf(event: AgentEvent): number {
  switch (event.type) {
    case 'text_delta':
      return 4;
    case 'tool_call_delta':
      return 5;
    case 'tool_started':
    case 'tool_finished':
    case 'message':
      return 40;
    default:
      return 1;
  }
}

export async function replay(
  events: readonly AgentEvent[],
  handle: (event: AgentEvent) => void,
  after: (event: AgentEvent, index: number) => Promise<void> | void = () => undefined,
): Promise<void> {
  for (const [index, event] of events.entries()) {
    handle(event);
    await after(event, index);
    await new Promise((resolve) => setTimeout(resolve, paceOf(event)));
  }
}

/**
 * The host's side of a whole session, without a page: the ChatModel's entries at the end, and every message
 * it sent on the way (a tool card's proposed diff among them). Waits a millisecond between events: the
 * live diff first reads the file when its first throttled preview runs (50 ms in), and a call that
 * streams in faster than that starts before the read is back, with an empty proposed diff.
 */
export async function hostSession(
  events: readonly AgentEvent[],
  readText: ReadText,
): Promise<{ entries: ChatEntry[]; sent: HostMessage[] }> {
  const sent: HostMessage[] = [];
  const model = new ChatModel((message) => sent.push(message), readText);
  model.addUser(PROMPT);
  for (const event of events) {
    model.handle(event);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  model.dispose();
  return { entries: [...model.all], sent };
}
