import * as z from 'zod';

// The composer's pickers as the host sends them to the chat panel (chatView.ts's `choices` message): kept
// apart so that chatView.ts stays one readable file.

/** The approval modes the composer's picker offers (`loopwire.approval`). */
export const ApprovalChoice = z.enum(['ask', 'all', 'read-only', 'plan', 'auto']);

/** A custom agent the agent picker lists (src/agent/customAgents): its name, what it is for, its file. */
export const AgentChoice = z.object({ name: z.string(), description: z.string(), file: z.string() });

/**
 * The composer's pickers: each setting's value now (the window's, wherever it was set) and what each offers.
 * The host sends the lists, so the page knows no model names of its own.
 */
export const ComposerChoices = z.object({
  model: z.string(),
  /** The default model, the current one and those picked lately; the picker adds Other…. */
  models: z.array(z.string()),
  /** `loopwire.reasoningEffort`: `default` is the model catalogue's effort for the model. */
  effort: z.string(),
  efforts: z.array(z.string()),
  /** What `default` sends for the current model (`medium`), so the picker can name it; absent: none. */
  defaultEffort: z.string().optional(),
  approval: ApprovalChoice,
  /**
   * Why the approval mode in force is not the user's own pick: the workspace's settings set a stricter one, or
   * a looser one that is not followed (src/extension/trust/approvalChoice.ts). Absent: it is the user's.
   */
  approvalNote: z.string().optional(),
  /**
   * Why no command can run in an OS sandbox on this machine, and how to get one: Auto confines nothing here,
   * so the picker shows it disabled, with this as its title. Absent: the sandbox works.
   */
  noSandbox: z.string().optional(),
  /** False: the model does not take images, as the model catalogue knows it (an image chip says so). */
  images: z.boolean().optional(),
  /** The custom agent the chat's next tasks go with, by name; absent: Loopwire's own (the picker's first entry). */
  agent: z.string().optional(),
  /** The custom agents the agent picker lists after Loopwire; absent or empty: the picker is not shown. */
  agents: z.array(AgentChoice).optional(),
});

export type AgentChoice = z.infer<typeof AgentChoice>;

export type ApprovalChoice = z.infer<typeof ApprovalChoice>;
export type ComposerChoices = z.infer<typeof ComposerChoices>;
