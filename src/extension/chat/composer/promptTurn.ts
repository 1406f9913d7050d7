import { type ApprovalMode, type CustomAgent, type FrontChoices, stricterMode } from '../../../agent';

// What one prompt of the chat runs with apart from the window's choices: a prompt file's `model`, `tools` and
// `agent`, `/plan`'s plan mode. Set when that prompt's task starts and cleared when it ends (chatController.ts), so
// the next prompt, queued or typed, goes with the composer's choices again: "for this prompt only".

/** A prompt's own choices (chatSlash.ts makes them from the command). */
export interface PromptChoices {
  /** The model id the prompt file names. */
  model?: string;
  /** The tools the prompt file names (VS Code's names or ours). */
  tools?: readonly string[];
  /** `/plan`: plan mode for this prompt. */
  plan?: true;
  /** A prompt file's `agent: ask` (or a handoff's): the read-only mode for this prompt. */
  readOnly?: true;
  /** A prompt file's `agent`: the custom agent it runs with (`null`: Loopwire's own), for this prompt. */
  agent?: CustomAgent | null;
}

export class PromptTurn {
  private current: PromptChoices | undefined;
  /** The last front choices made over a base, kept so that an unchanged answer is the same object. */
  private made: { base: FrontChoices; over: PromptChoices; choices: FrontChoices } | undefined;

  /** The running prompt's choices (none: the window's); cleared with `set(undefined)` when its task ends. */
  set(choices: PromptChoices | undefined): void {
    this.current = choices;
    this.made = undefined;
  }

  /**
   * The approval mode in force: plan mode while a `/plan` prompt runs, read-only while an `ask` one does (plan
   * where `base` is: a prompt's mode only narrows the user's), else `base`.
   */
  mode(base: ApprovalMode): ApprovalMode {
    return stricterMode(base, this.current?.plan ? 'plan' : this.current?.readOnly ? 'read-only' : undefined);
  }

  /**
   * The window's choices with this prompt's over them. The same object while neither changes: the agent
   * builds a request's tools again only when what it is given changes (createAgentSession.ts).
   */
  choices(base: FrontChoices): FrontChoices {
    const over = this.current;
    if (over?.model === undefined && over?.tools === undefined && over?.agent === undefined) return base;
    if (this.made?.base === base && this.made.over === over) return this.made.choices;
    const choices: FrontChoices = {
      ...base,
      ...(over.model === undefined ? {} : { model: over.model }),
      ...(over.tools === undefined ? {} : { tools: over.tools }),
      ...(over.agent === undefined ? {} : { agent: over.agent }),
    };
    this.made = { base, over, choices };
    return choices;
  }
}
