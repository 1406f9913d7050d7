import { z } from 'zod';
import { openSealed, sealJson, sealer } from './sealedContent';

// The `encrypted_content` of the reasoning items this server emits, and its check when a client replays one
// (docs/backend.md, "What it refuses"). Like the API's, it is opaque, bound to its item's id, and refused
// when it is not what a server issued: `lw1.` + the sealed JSON {id, summary} (sealedContent.ts says how, and
// why the key is fixed). The same item always gets the same content: deterministic, like everything else the
// scripted model does.

const REASONING = sealer('lw1.', 'loopwire-server reasoning.encrypted_content');

/** What an `encrypted_content` carries: the id and the summary texts of the item it was issued for. */
const SealedReasoning = z.object({ id: z.string(), summary: z.array(z.string()) });
export type SealedReasoning = z.infer<typeof SealedReasoning>;

/** The `encrypted_content` of reasoning item `id` with these summary texts; the same input, the same text. */
export function sealReasoning(id: string, summary: readonly string[]): string {
  return sealJson(REASONING, { id, summary });
}

/** The item `content` was issued for; undefined when this server did not issue it (malformed, altered, foreign). */
export function openReasoning(content: string): SealedReasoning | undefined {
  return openSealed(REASONING, SealedReasoning, content);
}
