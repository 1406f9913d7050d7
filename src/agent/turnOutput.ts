import type { AnyOutputItem, CallItem } from '../protocol';
import type { ToolRegistry } from '../tools';
import type { Workspace } from '../workspace';
import type { AgentEventSink } from './events';
import {
  callFolders,
  nestedCandidates,
  nestedInstructionsWithheld,
  readNested,
  scopeOf,
} from './instructions/nestedInstructions';
import { hostedCall, phaseOf, textOf } from './conversation/outputItems';
import { nestedSkillItems, nestedSkillScopes } from './skills/nestedSkills';
import { nestedSkillsScope } from './skills/skillsItem';
import type { Transcript } from './conversation/transcript';

// What a turn's output tells the front ends, and what it brings into the transcript after its calls ran: the
// loop's (agentLoop.ts) steps that need nothing of its state.

/** The answer's text and the server's own tool calls of `output`, as events of turn `turn`. */
export function showOutput(emit: AgentEventSink, turn: number, output: readonly AnyOutputItem[]): void {
  for (const item of output) {
    const text = textOf(item);
    const phase = phaseOf(item);
    if (text !== undefined && text !== '')
      emit({ type: 'message', turn, text, ...(phase === undefined ? {} : { phase }) });
  }
  for (const item of output) {
    const hosted = hostedCall(item);
    if (hosted) emit({ type: 'hosted_call', turn, ...hosted });
  }
}

/** Where a turn's calls ran, and what the agent keeps them and their notices in. */
export interface TurnCalls {
  turn: number;
  calls: readonly CallItem[];
  registry: ToolRegistry;
  transcript: Transcript;
  workspace: Workspace;
  emit: AgentEventSink;
}

/**
 * The AGENTS.md files below the workspace folder governing where this turn's calls worked, new to the chat;
 * undefined (nothing to wait for) where there is none, as after most turns.
 */
export function appendNestedInstructions(turnCalls: TurnCalls): Promise<void> | undefined {
  const { calls, registry, transcript, workspace } = turnCalls;
  const folders = calls.flatMap((call) => callFolders(call, registry));
  if (folders.length === 0) return undefined;
  const scopes = nestedInstructionsWithheld(transcript) ? [] : nestedCandidates(folders, transcript.items, workspace);
  const skillScopes = nestedSkillScopes(folders, transcript, workspace);
  if (scopes.length === 0 && skillScopes.length === 0) return undefined;
  return appendRead(turnCalls, scopes).then(() => appendSkills(turnCalls, skillScopes));
}

/** The skills of the folders below the workspace folder where the calls worked, new to the chat (nestedSkills.ts). */
async function appendSkills(turnCalls: TurnCalls, scopes: readonly string[]): Promise<void> {
  if (scopes.length === 0) return;
  const { turn, transcript, workspace, emit } = turnCalls;
  const items = await nestedSkillItems(scopes, transcript, workspace);
  transcript.append(...items);
  for (const item of items)
    emit({
      type: 'notice',
      code: 'nested_skills',
      message: `turn ${turn}: the model now has the skills of ${nestedSkillsScope(item)}/`,
    });
}

async function appendRead(turnCalls: TurnCalls, scopes: readonly string[]): Promise<void> {
  const { turn, transcript, workspace, emit } = turnCalls;
  const messages = await readNested(scopes, workspace);
  transcript.append(...messages);
  for (const message of messages)
    emit({
      type: 'notice',
      code: 'nested_instructions',
      message: `turn ${turn}: the model now has ${scopeOf(message)}/AGENTS.md, for the files under ${scopeOf(message)}/`,
    });
}
