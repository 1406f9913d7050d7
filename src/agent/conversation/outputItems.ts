import { type AnyInputItem, type AnyOutputItem, type InputImage, type InputText, OutputMessage } from '../../protocol';

// What the loop reads of the model's output items (an answer's text and phase, a server-side tool's call)
// and how it writes the user's words as an input item: kept apart from agentLoop.ts, which only drives.

/** A prompt with what the user attached to it (attachments.ts): its parts follow the prompt's text. */
export interface PromptWithParts {
  text: string;
  parts: readonly (InputText | InputImage)[];
}

/** The text of an answer (its output text and refusals), read with the protocol's schema; undefined for any other item. */
export const textOf = (item: AnyOutputItem): string | undefined => {
  // Asked of every item of every turn (a call's too): a schema's failed parse builds its error, which costs
  // more than the answer; only a message can pass it.
  if (item.type !== 'message') return undefined;
  const message = OutputMessage.safeParse(item);
  if (!message.success) return undefined;
  return message.data.content
    .map((part) =>
      part.type === 'output_text' && typeof part.text === 'string'
        ? part.text
        : 'refusal' in part && typeof part.refusal === 'string'
          ? part.refusal
          : '',
    )
    .join('');
};

/** A message's `phase` (`commentary`, `final_answer`), where the server gave one. */
export const phaseOf = (item: AnyOutputItem): string | undefined => {
  if (item.type !== 'message') return undefined;
  const message = OutputMessage.safeParse(item);
  return message.success ? (message.data.phase ?? undefined) : undefined;
};

/** The item types the loop itself answers or shows: any other is a server-side (hosted) tool's, or newer. */
const OWN_ITEM_TYPES = new Set(['message', 'function_call', 'custom_tool_call', 'reasoning', 'compaction']);

/** An output item of a server-side tool, as one line: its type, and its action (a web search's query or page). */
export function hostedCall(item: AnyOutputItem): { itemType: string; summary: string } | undefined {
  const record = item as Record<string, unknown>;
  const itemType = typeof record.type === 'string' ? record.type : undefined;
  if (itemType === undefined || OWN_ITEM_TYPES.has(itemType)) return undefined;
  const action = (typeof record.action === 'object' && record.action !== null ? record.action : {}) as Record<
    string,
    unknown
  >;
  const words = [action.type, action.query, action.pattern, action.url].filter(
    (word): word is string => typeof word === 'string' && word !== '',
  );
  const status = typeof record.status === 'string' ? record.status : '';
  return { itemType, summary: words.length > 0 ? words.join(' ') : status };
}

/**
 * The prompt as the user's message: a string alone, or its text's part then its attachments'. A prompt with no
 * text (an image sent alone) is its attachments' parts only: an empty `input_text` says nothing to the model.
 */
export function userMessage(prompt: string | PromptWithParts): AnyInputItem {
  if (typeof prompt === 'string') return { type: 'message', role: 'user', content: prompt };
  if (prompt.parts.length === 0) return { type: 'message', role: 'user', content: prompt.text };
  if (prompt.text === '') return { type: 'message', role: 'user', content: [...prompt.parts] };
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt.text }, ...prompt.parts] };
}
