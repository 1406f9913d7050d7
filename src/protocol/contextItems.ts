import type { AnyInputItem } from './items';
import { isUserMessage } from './compaction';

// Context items: user messages a client adds that the user did not type — where the agent works
// (`<environment_context>`), the project's instructions (`# AGENTS.md instructions for DIR`), in the forms
// Codex sends and its models know, and the skills (`# Skills`, and a named skill's `<skill name="…">`), and what a hook adds (`<hook_context …>`). They
// go on the chain like any message, but they are not prompts: the scripted model looks past them for the
// prompt a scenario answers, and a chat does not show them as the user's words.

/** The environment item's tag: its text is `<environment_context>…</environment_context>`. */
export const ENVIRONMENT_CONTEXT_TAG = 'environment_context';

/** What starts a project-instructions message's text. */
export const PROJECT_INSTRUCTIONS_HEADING = '# AGENTS.md instructions for ';

/** What starts a skills list's text (src/agent/skills): the skills the model may use. */
export const SKILLS_HEADING = '# Skills';

/** What starts the text of a skill the user named in a prompt (`$name`): `<skill name="…" path="…">`. */
export const NAMED_SKILL_OPEN = '<skill name="';

/** What starts the text of a hook's context (src/agent/hooks): `<hook_context event="…">`. */
export const HOOK_CONTEXT_OPEN = '<hook_context ';

/** The text of a user message whose first part is text (or whose content is a string), else undefined. */
export function userMessageText(item: AnyInputItem): string | undefined {
  if (!isUserMessage(item)) return undefined;
  const content = (item as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const first = content[0] as { type?: unknown; text?: unknown } | undefined;
  return first?.type === 'input_text' && typeof first.text === 'string' ? first.text : undefined;
}

export function isEnvironmentContext(item: AnyInputItem): boolean {
  return userMessageText(item)?.startsWith(`<${ENVIRONMENT_CONTEXT_TAG}>`) === true;
}

/** A context item (environment, project instructions, skills): a user message that is not a prompt. */
export function isContextMessage(item: AnyInputItem): boolean {
  const text = userMessageText(item);
  return (
    text !== undefined &&
    (text.startsWith(`<${ENVIRONMENT_CONTEXT_TAG}>`) ||
      text.startsWith(PROJECT_INSTRUCTIONS_HEADING) ||
      text.startsWith(`${SKILLS_HEADING}\n`) ||
      text.startsWith(`${SKILLS_HEADING} for `) ||
      text.startsWith(NAMED_SKILL_OPEN) ||
      text.startsWith(HOOK_CONTEXT_OPEN))
  );
}

/** A prompt: a user message that is not a context item. */
export function isPrompt(item: AnyInputItem): boolean {
  return isUserMessage(item) && !isContextMessage(item);
}
