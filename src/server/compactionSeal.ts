import { z } from 'zod';
import { openSealed, sealJson, sealer } from './sealedContent';

// The `encrypted_content` of the compaction items this server issues (docs/backend.md, "Compaction"): opaque,
// bound to the item's id, deterministic, and refused when replayed altered or made up — as reasoning's is
// (reasoningSeal.ts). `lwc1.` + the sealed JSON below; a reasoning item's content never opens as one.

const COMPACTION = sealer('lwc1.', 'loopwire-server compaction.encrypted_content');

/** What a compaction stands for, as far as this server needs it again. */
const SealedCompaction = z.object({
  /** The id of the item it was issued for. */
  id: z.string(),
  /** The text of the latest user message of the compacted context (null when it had none). */
  prompt: z.string().nullable(),
  /** Model responses since that message, the ones folded in included: the scripted model's step position. */
  responses: z.int().nonnegative(),
  /** The summary the model reads in place of the replaced items; its tokens are what the compaction costs. */
  digest: z.string(),
});
export type SealedCompaction = z.infer<typeof SealedCompaction>;

export function sealCompaction(sealed: SealedCompaction): string {
  const { id, prompt, responses, digest } = sealed;
  return sealJson(COMPACTION, { id, prompt, responses, digest });
}

/** What `content` stands for; undefined when this server did not issue it (malformed, altered, foreign). */
export function openCompaction(content: string): SealedCompaction | undefined {
  return openSealed(COMPACTION, SealedCompaction, content);
}
