import * as z from 'zod';

// The composer's `/` menu (src/webview/slashMenu.ts): the slash commands the host lists (src/agent/prompts'
// slashCommands: Loopwire's own, then the workspace's prompt files, then the skills), each with its
// description. The page asks when the menu opens (`slashCommands`) and the host answers with this list; what a
// picked command does is the host's, on send (src/extension/chat/composer/chatSlash.ts).

/** One command of the menu: a built-in, a prompt file or a skill, with its description and argument hint. */
export const SlashEntry = z.object({
  kind: z.enum(['builtin', 'prompt', 'skill']),
  name: z.string().min(1).max(200),
  description: z.string().max(2000),
  /** What follows the name (a prompt file's `argument-hint`). */
  hint: z.string().max(500).optional(),
});

export const SlashEntries = z.array(SlashEntry).max(1000);

export type SlashEntry = z.infer<typeof SlashEntry>;
