import type { Hunk } from '../../edit';
import { t } from '@vscode/l10n';
import type { InlineEntry } from '../../protocol/chatView';
import type { InlineRequest } from './inlineRequest';

// What an inline edit leaves in the chat once it has ended (plain: tested without VS Code): one short line,
// "Fixed inline in src/cart.js:12" with how it ended, whose card holds what was asked, the hunks the model
// wrote and what it said. The chat adds it as an entry of its own (chat/entries/inlineEntries.ts); it is no part of
// the chat's conversation with its model. One still waiting for Keep or Undo when the window closes is
// recorded then, as left pending (InlineRun.leave).

/** An inline entry before the chat gives it an id. */
export type InlineNote = Omit<InlineEntry, 'id'>;

/** What became of one hunk the model wrote: kept (or worked on by the user since) or taken back. */
export type HunkDecision = 'kept' | 'undone';

/** How an inline edit ended, as the run knows it. */
export interface InlineEnd {
  request: Pick<InlineRequest, 'kind' | 'path' | 'first' | 'instruction' | 'problem' | 'cursor'>;
  /** `completed`: the model answered (then each hunk's decision says the rest); `stopped`: Escape or Stop. */
  ended: 'completed' | 'stopped' | 'failed';
  /** Every hunk the model wrote into the file, in order. */
  hunks: readonly Hunk[];
  decisions: ReadonlyMap<string, HunkDecision>;
  /** What the model said at the end, or why it stopped. */
  note: string;
  /**
   * The window closed while hunks still waited for Keep or Undo: they stay in the file as the model wrote
   * them, no longer marked (the lenses go with the window); `saved`: the file on disk had them then.
   */
  left?: { saved: boolean };
}

/** The line an entry names: a fix's problem's, an edit's cursor's (nothing selected) or first selected line. */
function lineOf(request: InlineEnd['request']): number {
  return (request.kind === 'fix' ? request.problem?.line : request.cursor) ?? request.first;
}

/** "Fixed inline in src/cart.js:12", "Edited inline in src/cart.js:10". */
export function inlineTitle(request: InlineEnd['request']): string {
  // The title ends with `path:line`, which the page makes a link (inlineEntry.ts): every translation keeps it last.
  const place = `${request.path}:${lineOf(request)}`;
  return request.kind === 'fix' ? t('Fixed inline in {0}', place) : t('Edited inline in {0}', place);
}

function outcomeOf(end: InlineEnd, kept: number): InlineEntry['outcome'] {
  if (end.ended !== 'completed') return end.ended;
  if (end.hunks.length === 0) return 'unchanged';
  if (end.left && end.hunks.some((hunk) => !end.decisions.has(hunk.id))) return 'pending';
  if (kept === end.hunks.length) return 'kept';
  return kept === 0 ? 'undone' : 'partly';
}

/** The chat's entry for an inline edit that ended. */
export function inlineNote(end: InlineEnd): InlineNote {
  const { request } = end;
  const kept = end.hunks.filter((hunk) => end.decisions.get(hunk.id) === 'kept').length;
  const outcome = outcomeOf(end, kept);
  return {
    kind: 'inline',
    action: request.kind,
    title: inlineTitle(request),
    outcome,
    ...(outcome === 'pending' ? { saved: end.left?.saved ?? false } : {}),
    path: request.path,
    line: lineOf(request),
    prompt: request.instruction,
    // One file: an inline edit writes only the file it is about.
    diff:
      end.hunks.length === 0
        ? []
        : [{ path: request.path, op: 'update', hunks: end.hunks.map((hunk) => ({ ...hunk })), pending: false }],
    kept,
    note: end.note,
  };
}
