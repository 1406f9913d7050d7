import type { AgentSpec } from '../../agent';
import { ReadLedger, type ToolRegistry } from '../../tools';
import type { Workspace } from '../../workspace';
import { modelChoices } from './modelChoices';

/**
 * An inline edit's agent: its reads its own (it never saw what the window's conversations read), its commands
 * run to their end, and it ends on its edit (one request in the common case, no closing answer: editEnd.ts).
 * It goes as Loopwire with the composer's model, and lists no skills and runs no subagents or hooks (its small
 * request).
 */
export const inlineSpec = (workspace: Workspace, registry: ToolRegistry) =>
  ({
    tools: { workspace, reads: new ReadLedger() },
    registry,
    endAfterEdit: true,
    choices: modelChoices,
  }) satisfies Partial<AgentSpec>;
