import type { ApprovalMode } from '../../agent/activation';

// Whether inline edits are offered, from the approval mode in force. The streamed edit is its own approval
// (Keep / Undo) in `ask`, `auto` and `all`; in `read-only` and `plan` nothing may be written, so the light bulb
// offers only Fix in Chat and Ctrl+I is not bound. Free of `vscode`: the table is a unit test.

/**
 * Context key, true while inline edits are off (the package.json keybinding and command palette test it).
 * Negative on purpose: before activation no key is set, and Ctrl+I must still start Loopwire then.
 */
export const INLINE_OFF_KEY = 'loopwire.inlineEditOff';

/** Whether `mode` lets an inline edit write the file. */
export const inlineAllowed = (mode: ApprovalMode): boolean => mode !== 'read-only' && mode !== 'plan';

/** The light bulb's fixes for one diagnostic in `mode`, in the order offered. */
export const fixOffers = (mode: ApprovalMode): ('inline' | 'chat')[] =>
  inlineAllowed(mode) ? ['inline', 'chat'] : ['chat'];
