import type { AnyInputItem } from '../../protocol';
import { instructionsItem } from '../transport/requestBody';
import type { Transcript } from '../conversation/transcript';

// The standing instructions name only the tools a request offers (instructions.ts). They go first in the
// context, and a chained request inherits them; a model picked mid-chat may be offered other tools (edit_file
// where apply_patch was, no plan tool). History is never rewritten — the socket's cache and the chain rest on
// an unchanged prefix — so, as the environment item does (environmentContext.ts), the new text goes at the end
// of the chain as a developer item of its own, saying that it replaces the earlier one, before the next request.

/** The first line of instructions sent again because the tools changed: the model reads them as the ones in force. */
export const REPLACED_INSTRUCTIONS =
  'The tools offered to you changed. These instructions replace all earlier standing instructions.';

/** The instructions' text as a developer item of the transcript holds it (a replacement's, less its first line). */
function instructionsText(item: AnyInputItem): string {
  const content = (item as { content?: unknown }).content;
  const first = Array.isArray(content) ? (content[0] as { text?: unknown } | undefined) : undefined;
  const text = typeof content === 'string' ? content : typeof first?.text === 'string' ? first.text : '';
  return text.startsWith(`${REPLACED_INSTRUCTIONS}\n\n`) ? text.slice(REPLACED_INSTRUCTIONS.length + 2) : text;
}

/** A developer item: the instructions a compaction is followed by, or a replacement. */
export function isInstructions(item: AnyInputItem): boolean {
  return (item as { role?: unknown }).role === 'developer';
}

/** The item that replaces the instructions in force with `text`. */
export function replacedInstructionsItem(text: string): AnyInputItem {
  return instructionsItem(`${REPLACED_INSTRUCTIONS}\n\n${text}`);
}

/** The instructions the model reads as in force in `items`: the latest developer item's, else `first` (the context's head). */
export function instructionsInForce(first: string, items: readonly AnyInputItem[]): string {
  const item = items.findLast(isInstructions);
  return item ? instructionsText(item) : first;
}

/**
 * What the agent calls before each request: appends a replacement to `transcript` when `read` (the
 * instructions for the tools offered now) differs from those in force, the head's `first` or a later
 * developer item's (a resumed session's included). An unchanged text costs a string comparison.
 */
export function instructionsFollower(first: string, read: () => string, transcript: Transcript): () => void {
  let last: string | undefined;
  return () => {
    const text = read();
    last ??= instructionsInForce(first, transcript.items);
    if (text === last || text === '') return;
    last = text;
    transcript.append(replacedInstructionsItem(text));
  };
}
