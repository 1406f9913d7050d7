import type { CallItem } from '../protocol';
import type { ToolRegistry } from '../tools';

// When a task ends on its edit, without a request for a closing answer (the agent's `endAfterEdit`): an
// inline edit's chain is its own, started fresh for each request, and the edit streamed into the editor is
// its answer (Keep / Undo), so nothing later needs the model to say it is done. An edit that failed (a patch
// that did not apply) goes back to the model as today, so that it can try again.

/** Whether a response's calls were all edits (the tools' `write` effect) and every one of them ran. */
export function editLanded(calls: readonly CallItem[], failed: readonly string[], registry: ToolRegistry): boolean {
  return calls.length > 0 && failed.length === 0 && calls.every((call) => registry.effect(call.name) === 'write');
}
