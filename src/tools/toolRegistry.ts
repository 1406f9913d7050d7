import { z } from 'zod';
import type { CustomTool, FunctionTool } from '../protocol';
import type { Plan } from '../protocol/plan';
import { mainArgument } from './callSummary';
import { TOOL_OUTPUT_BUDGET_TOKENS } from './runReport';
import type {
  ApprovalView,
  EditStyle,
  LiveDiffKind,
  OfferedDefaults,
  OutputShape,
  ToolDefinition,
  ToolEffect,
  ToolNeed,
} from './tool';

// A set of tools by name, and everything the rest of the program asks of a tool: its effect (approvals),
// whether it is offered (trust, capabilities, editing style), how it is called, how it summarises and shows.
// The answers come from each tool's own definition; nothing here names a tool. `BUILTIN_TOOLS` (toolSet.ts)
// is Loopwire's own; tools added at run time (the editor's, MCP servers') make a new set with `with`.

/** Where the tools run: what is offered of them. */
export interface ToolAvailability {
  /** false: an untrusted workspace, where nothing writes files or runs tasks. Default true. */
  trusted?: boolean;
  /** What the workspace can do (`Workspace.capabilities`); a capability not given is assumed. */
  capabilities?: Partial<Record<ToolNeed, boolean>>;
}

/** What an untrusted workspace cannot do. */
const UNTRUSTED_LACKS: ReadonlySet<ToolNeed> = new Set(['writes', 'tasks', 'commands']);

export interface ToolOffer {
  /** Offer the tools whose answer is an image (view_image): the model catalogue's images column. Default: false. */
  images?: boolean;
  /** Default: from the model's name (`auto`). */
  editStyle?: EditStyle | 'auto';
  /** How a freeform tool (apply_patch) is offered: a custom tool with its grammar (default) or a function `{input}`. */
  applyPatchAs?: 'custom' | 'function';
  /** Leave out tools the workspace cannot run (diagnostics without a language service…). */
  capabilities?: { diagnostics: boolean; tasks: boolean; writes?: boolean; commands?: boolean };
  /**
   * Offer the plan tool (update_plan): the model catalogue's plan column, or the user's `loopwire.planTool`.
   * Default: from the model's name (`planToolFor`).
   */
  planTool?: boolean;
  /**
   * Offer what reaches a command running in the background (write_stdin): where the host keeps sessions
   * (`ToolContext.sessions`). Default: false.
   */
  sessions?: boolean;
  /**
   * Offer the subagent tools (spawn_agent, send_input, wait, close_agent): the model catalogue's subagents
   * column, where the agent may start subagents (`ToolContext.agents`). Default: false.
   */
  agents?: boolean;
  /**
   * Tokens of a command's output a call keeps unless it asks for more or less: the model catalogue's
   * `toolOutputTokens`, named in `max_output_tokens`' description. Default: TOOL_OUTPUT_BUDGET_TOKENS.
   */
  outputTokens?: number;
  /** Commands run in an OS sandbox: exec_command offers the parameters that ask to leave it. Default: false. */
  sandbox?: boolean;
}

/** The editing styles by what the model writes: a patch (apply_patch) or exact replacements (edit_file). */
export const EDIT_STYLES = { patch: 'apply_patch', replacements: 'edit_file' } as const satisfies Record<
  string,
  EditStyle
>;

/**
 * GPT and Codex models are trained on apply_patch; others do better with string replacements. The agent's
 * model catalogue (src/agent/model/modelCatalogue.ts) decides for the families it knows and asks this for the rest.
 */
export function editStyleFor(model: string): EditStyle {
  return /^(gpt-|o\d|codex|computer-use)/i.test(model.replace(/^.*\//, ''))
    ? EDIT_STYLES.patch
    : EDIT_STYLES.replacements;
}

/**
 * GPT-5.x, later GPT and Codex models are trained to keep a plan with update_plan; the model catalogue
 * (src/agent/model/modelCatalogue.ts) decides for the families it knows, and this for a name alone.
 */
export function planToolFor(model: string): boolean {
  return /^(gpt-5|gpt-6|codex)/i.test(model.replace(/^.*\//, ''));
}

/**
 * A tool's argument schema as the JSON Schema a request carries: its `parameters` as given, else from its
 * `offeredArgs` for a model with `defaults` (when given), else from `args`.
 */
export function parametersOf(tool: ToolDefinition, defaults?: OfferedDefaults): Record<string, unknown> {
  if (tool.parameters) return tool.parameters;
  const args = defaults && tool.offeredArgs ? tool.offeredArgs(defaults) : tool.args;
  const { $schema: _ignored, ...schema } = z.toJSONSchema(args, { io: 'input' }) as Record<string, unknown>;
  return schema;
}

function functionTool(tool: ToolDefinition, defaults: OfferedDefaults): FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: parametersOf(tool, defaults),
    strict: false,
  };
}

export class ToolRegistry {
  private readonly byName: ReadonlyMap<string, ToolDefinition>;

  constructor(readonly tools: readonly ToolDefinition[]) {
    const byName = new Map<string, ToolDefinition>();
    for (const tool of tools) {
      if (byName.has(tool.name)) throw new Error(`Two tools are named ${tool.name}.`);
      byName.set(tool.name, tool);
    }
    this.byName = byName;
  }

  /** This set and `tools` (tools added at run time); a name already taken is an error. */
  with(tools: readonly ToolDefinition[]): ToolRegistry {
    return new ToolRegistry([...this.tools, ...tools]);
  }

  /** Every tool's name, in the set's order. */
  get names(): string[] {
    return this.tools.map((tool) => tool.name);
  }

  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  /** A tool's effect; an unknown tool reads nothing (it only answers with an error). */
  effect(name: string): ToolEffect {
    return this.get(name)?.effect ?? 'read';
  }

  /** One short line saying what a call asks for, from its input (possibly still streaming). */
  summarize(name: string, input: string): string {
    return (this.get(name)?.summarize ?? mainArgument)(input);
  }

  /** What an approval of the call shows, from its whole input; undefined: the tool leaves it to the host. */
  approval(name: string, input: string): ApprovalView | undefined {
    return this.get(name)?.approval?.(input);
  }

  /** The workspace paths the call reads or changes, from its whole input (a card links them). */
  paths(name: string, input: string): string[] {
    return this.get(name)?.paths?.(input) ?? [];
  }

  /** The task's plan as the call sets it, from its whole input; undefined: the call keeps no plan (or is refused). */
  plan(name: string, input: string): Plan | undefined {
    return this.get(name)?.plan?.(input);
  }

  /** How the call's streamed input previews as a diff; undefined: it does not. */
  liveDiff(name: string): LiveDiffKind | undefined {
    return this.get(name)?.liveDiff;
  }

  /** How a front end shows the call's output; undefined: lines from the top. */
  outputShape(name: string): OutputShape | undefined {
    return this.get(name)?.outputShape;
  }

  /** Whether the tool takes freeform input (one string, its `input` argument) besides JSON arguments. */
  takesFreeform(name: string): boolean {
    return this.get(name)?.freeform !== undefined;
  }

  /** Whether `text` a person gave for the tool is its freeform input rather than JSON arguments. */
  isFreeformInput(name: string, text: string): boolean {
    return this.get(name)?.freeform?.recognizes(text) ?? false;
  }

  /** The tools offered where they run: each one's `requires` met (and no writes or tasks untrusted). */
  available(where: ToolAvailability = {}): ToolDefinition[] {
    return this.tools.filter((tool) => {
      if (tool.requires === undefined) return true;
      if (where.trusted === false && UNTRUSTED_LACKS.has(tool.requires)) return false;
      return where.capabilities?.[tool.requires] !== false;
    });
  }

  /** The `tools` of a request for `model`: every tool available but those of the editing style it is not offered. */
  offer(model: string, offer: ToolOffer = {}): (FunctionTool | CustomTool)[] {
    const style = !offer.editStyle || offer.editStyle === 'auto' ? editStyleFor(model) : offer.editStyle;
    const optedIn = {
      plan: offer.planTool ?? planToolFor(model),
      sessions: offer.sessions ?? false,
      images: offer.images ?? false,
      agents: offer.agents ?? false,
    };
    const defaults: OfferedDefaults = {
      outputTokens: offer.outputTokens ?? TOOL_OUTPUT_BUDGET_TOKENS,
      sandbox: offer.sandbox ?? false,
    };
    const tools = this.available(offer.capabilities ? { capabilities: offer.capabilities } : {}).filter(
      (tool) => (tool.editStyle === undefined || tool.editStyle === style) && (!tool.optIn || optedIn[tool.optIn]),
    );
    return tools.map((tool) => {
      if (tool.freeform && (offer.applyPatchAs ?? 'custom') === 'custom') {
        return {
          type: 'custom',
          name: tool.name,
          description: tool.description,
          format: { type: 'grammar', syntax: 'lark', definition: tool.freeform.grammar },
        };
      }
      return functionTool(tool, defaults);
    });
  }
}
