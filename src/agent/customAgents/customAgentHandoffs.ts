import { z } from 'zod';

// A custom agent's `handoffs` (VS Code's front matter, code.visualstudio.com/docs/agents/reference): the next
// steps offered once one of its answers is complete, each a button in the chat — `label` its text, `agent` the
// agent the chat switches to, `prompt` what goes in the composer (sent at once where `send: true`), `model` the
// model for it. Each entry is checked on its own: a bad one is said with its number and left out, the agent and
// its other handoffs kept. A target is resolved once every agent is found (customAgentDiscovery.ts).

/** The most handoffs one agent offers (a row of buttons): the rest are said and left out. */
export const HANDOFFS_MAX = 8;

/** One handoff as a file writes it: the one schema of its shape. */
export const CustomAgentHandoff = z.object({
  label: z
    .string({ error: 'its `label` is missing or not text' })
    .transform((text) => text.trim().replace(/\s+/g, ' '))
    .pipe(z.string().min(1, { error: 'its `label` is empty' }).max(80, { error: 'its `label` is over 80 characters' })),
  agent: z.string({ error: 'its `agent` is missing or not text' }).trim().min(1, { error: 'its `agent` is empty' }),
  prompt: z.string({ error: 'its `prompt` is not text' }).max(20_000, { error: 'its `prompt` is too long' }).optional(),
  send: z.boolean({ error: 'its `send` is not true or false' }).optional(),
  model: z.string({ error: 'its `model` is not text' }).trim().optional(),
});

export type CustomAgentHandoff = z.infer<typeof CustomAgentHandoff>;

/** The approval mode a handoff to VS Code's `ask` (read-only) or `plan` gives the prompt it sends, that prompt alone. */
export type HandoffMode = 'plan' | 'read-only';

/** A handoff once its target is resolved (customAgentDiscovery.ts): `mode` where it named `ask` or `plan`. */
export type AgentHandoff = CustomAgentHandoff & { mode?: HandoffMode };

/** The front matter's field: a list, each entry checked apart (CustomAgentHandoff). */
export const HandoffsField = z.array(z.unknown(), { error: 'the field `handoffs` is not a list' }).optional();

/** `raw`'s valid handoffs, in order, and a sentence for each one left out. */
export function readHandoffs(raw: readonly unknown[] | undefined): {
  handoffs: CustomAgentHandoff[];
  problems: string[];
} {
  const handoffs: CustomAgentHandoff[] = [];
  const problems: string[] = [];
  (raw ?? []).forEach((entry, index) => {
    const parsed = CustomAgentHandoff.safeParse(entry);
    if (!parsed.success) {
      const why = parsed.error.issues[0]?.message ?? 'it is not valid';
      const expected = typeof entry === 'object' && entry !== null && !Array.isArray(entry);
      return void problems.push(
        `its handoff ${index + 1}: ${expected ? why : 'it is not a mapping of fields'}: left out`,
      );
    }
    if (handoffs.length >= HANDOFFS_MAX)
      return void problems.push(`its handoff ${index + 1}: an agent offers at most ${HANDOFFS_MAX}: left out`);
    const { prompt, model, ...rest } = parsed.data;
    handoffs.push({ ...rest, ...(prompt?.trim() ? { prompt } : {}), ...(model ? { model } : {}) });
  });
  return { handoffs, problems };
}
