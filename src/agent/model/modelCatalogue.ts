import { EDIT_STYLES, type EditStyle, SHELL_TOOL, TOOL_OUTPUT_BUDGET_TOKENS, editStyleFor } from '../../tools';

// What Loopwire sends and offers each model family, in one table (docs/endpoints.md prints it, and a test
// keeps the two the same). The defaults here are what `default` means in the effort and verbosity settings;
// a user's own choice (a setting, the panel's picker, a flag) always wins (modelOptions.ts). The GPT-5 and
// Codex rows follow what those models are trained with in Codex: `medium` effort, and `low` verbosity where
// the model takes one (Codex models accept only `medium`). A model the table does not know gets defaults
// that no server refuses: no reasoning field unless the user picks an effort, no plan tool, no images.

/** A reasoning effort the catalogue may default to (the API's values, less those only a user picks). */
export type DefaultEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high';
export type DefaultVerbosity = 'low' | 'medium' | 'high';

/** One family's row. */
export interface ModelProfile {
  /** The family as the docs name it (`gpt-5*-codex*`); `unknown` for a model the table does not know. */
  family: string;
  /** Input tokens: the model's window less what it keeps for output (GPT-5: 400k, 128k of it output). */
  contextWindow: number;
  /** `reasoning.effort` when the user chose `default`; undefined: none sent. */
  effort: DefaultEffort | undefined;
  /** A reasoning model: asked for reasoning summaries (`reasoning.summary: "auto"`) unless they are off. */
  reasons: boolean;
  /** `text.verbosity` when the user chose `default`; undefined: none sent. */
  verbosity: DefaultVerbosity | undefined;
  /** How it edits: apply_patch (a freeform patch) or edit_file and write_file (exact replacements). */
  editTool: EditStyle;
  /** The tool offered for shell command lines, where the workspace runs commands. */
  shellTool: string;
  /** Offered the plan tool (`update_plan`, not built yet: the column a later change reads). */
  planTool: boolean;
  /** `parallel_tool_calls` as sent (read-only calls of one answer run side by side); undefined: not sent. */
  parallelCalls: boolean | undefined;
  /**
   * Tokens of a command's or task's output in one tool result: its head and its tail are kept within it
   * (runReport.ts). A call's own `max_output_tokens` wins over it.
   */
  toolOutputTokens: number;
  /** Takes images in its input (a later image tool and attachments read this). */
  images: boolean;
  /** Takes `response.steer` (the steering issue): a prompt sent while it works joins the running response. */
  steering: boolean;
  /**
   * Offered the subagent tools (spawn_agent, send_input, wait, close_agent), where the front end lets the agent
   * start subagents: the families trained on Codex's multi-agent tools.
   */
  subagents: boolean;
}

type Row = ModelProfile & { match: RegExp };

/** Codex's budget for a run's output (10,000 tokens), the tools' default. */
const TOOL_OUTPUT_TOKENS = TOOL_OUTPUT_BUDGET_TOKENS;
/**
 * Half of it for the families with about half the window (128k): one command's output then takes the same
 * share of the context, about 4 %, and a few long outputs do not crowd out the conversation.
 */
const SMALL_WINDOW_OUTPUT_TOKENS = 5_000;

/** What the GPT-5 and later families share; rows below change only what differs. */
const GPT: Omit<ModelProfile, 'family'> = {
  contextWindow: 272_000,
  effort: 'medium',
  reasons: true,
  verbosity: 'low',
  editTool: EDIT_STYLES.patch,
  shellTool: SHELL_TOOL,
  planTool: true,
  parallelCalls: true,
  toolOutputTokens: TOOL_OUTPUT_TOKENS,
  images: true,
  steering: false,
  subagents: true,
};

/** Older OpenAI families: the patch tool they were trained on, their own reasoning defaults, no plan tool. */
const OLDER: Omit<ModelProfile, 'family' | 'contextWindow'> = {
  ...GPT,
  effort: undefined,
  verbosity: undefined,
  planTool: false,
  subagents: false,
};

/** In order: the first row whose pattern matches the model's name (without a provider's `openai/`) wins. */
const ROWS: readonly Row[] = [
  { family: 'gpt-6*-codex*', match: /^gpt-6.*codex/, ...GPT, verbosity: 'medium', steering: true },
  { family: 'gpt-6*', match: /^gpt-6/, ...GPT, steering: true },
  { family: 'gpt-5*-codex*', match: /^gpt-5.*codex/, ...GPT, verbosity: 'medium' },
  {
    family: 'gpt-5*-chat*',
    match: /^gpt-5.*-chat/,
    ...OLDER,
    contextWindow: 128_000,
    reasons: false,
    toolOutputTokens: SMALL_WINDOW_OUTPUT_TOKENS,
  },
  { family: 'gpt-5*', match: /^gpt-5/, ...GPT },
  { family: 'codex-*', match: /^codex-/, ...OLDER, contextWindow: 272_000 },
  { family: 'gpt-4.1*', match: /^gpt-4\.1/, ...OLDER, contextWindow: 1_000_000, reasons: false },
  {
    family: 'gpt-4o*',
    match: /^gpt-4o/,
    ...OLDER,
    contextWindow: 128_000,
    reasons: false,
    toolOutputTokens: SMALL_WINDOW_OUTPUT_TOKENS,
  },
  { family: 'o1*, o3*, o4*', match: /^o[134]/, ...OLDER, contextWindow: 200_000 },
  // Often served locally (Ollama, vLLM), where a field the server does not know may be refused.
  {
    family: 'gpt-oss*',
    match: /^gpt-oss/,
    ...OLDER,
    contextWindow: 131_072,
    parallelCalls: undefined,
    toolOutputTokens: SMALL_WINDOW_OUTPUT_TOKENS,
    images: false,
  },
];

/** A model no row knows: what every Responses server accepts, and the default model's window. */
export const UNKNOWN_MODEL: ModelProfile = {
  family: 'unknown',
  contextWindow: 272_000,
  effort: undefined,
  reasons: false,
  verbosity: undefined,
  editTool: EDIT_STYLES.replacements,
  shellTool: SHELL_TOOL,
  planTool: false,
  parallelCalls: undefined,
  toolOutputTokens: TOOL_OUTPUT_TOKENS,
  images: false,
  steering: false,
  subagents: false,
};

/** The catalogue's rows, in matching order, then the unknown model's (what docs/endpoints.md prints). */
export const MODEL_CATALOGUE: readonly ModelProfile[] = [
  ...ROWS.map(({ match: _match, ...row }) => row),
  UNKNOWN_MODEL,
];

/** The row for `model`. An unknown name still gets the edit tool its name suggests (`editStyleFor`). */
export function modelProfile(model: string): ModelProfile {
  const name = model.toLowerCase().replace(/^.*\//, '');
  const row = ROWS.find(({ match }) => match.test(name));
  if (row) {
    const { match: _match, ...profile } = row;
    return profile;
  }
  return { ...UNKNOWN_MODEL, editTool: editStyleFor(name) };
}
