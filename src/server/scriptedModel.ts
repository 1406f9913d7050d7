import type { AnyInputItem, OutputItem } from '../protocol';
import { locateStep } from './contextSteps';
import { substituteDiffLines } from './diffLines';
import { outputsSincePrompt, substituteOutputs } from './outputReferences';
import type { Fault } from './faults';
import { newId } from './ids';
import { DEFAULT_SCENARIO_HINT, noMatchAnswer } from './noMatchAnswer';
import type { Scenario, ScenarioFile, ScenarioItem } from './scenarioFile';

// The deterministic model behind loopwire-server. It reads only the context, so a scenario plays the same
// over HTTP with full history, HTTP chained and WebSocket: the step is derived from the items themselves
// (contextSteps.ts), compactions included.

export { locateStep };

/** What the model answers for one response. */
export interface ModelTurn {
  output: OutputItem[];
  fault: Fault | undefined;
  /** `scenario#step`, or why nothing matched: for logs and tests. */
  trace: string;
}

export class ScriptedModel {
  private readonly scenarios: { scenario: Scenario; pattern: RegExp }[];

  /**
   * `files` in load order: the first scenario that matches wins. `scenarioHint` says how to add a scenario in
   * the front end that started the server, for the answer to a prompt no scenario matches.
   */
  constructor(
    files: readonly ScenarioFile[],
    private readonly scenarioHint: string = DEFAULT_SCENARIO_HINT,
  ) {
    this.scenarios = files.flatMap((file) =>
      // `d`: the groups' places, for `{{diff_line.NAME}}` (diffLines.ts).
      file.scenarios.map((scenario) => ({ scenario, pattern: new RegExp(scenario.match, 'id') })),
    );
  }

  get scenarioCount(): number {
    return this.scenarios.length;
  }

  respond(items: readonly AnyInputItem[]): ModelTurn {
    const located = locateStep(items);
    if (!located) {
      return say(
        'loopwire-server: there is no user message in this conversation, so no scenario can match.',
        'no user message',
      );
    }
    const found = this.match(located.prompt);
    if (!found) {
      return say(
        noMatchAnswer(
          this.scenarios.map(({ scenario }) => scenario),
          this.scenarioHint,
        ),
        'no match',
      );
    }
    const { scenario, match } = found;
    const step = scenario.steps[located.step - 1];
    if (!step) {
      return say(
        `loopwire-server: scenario '${scenario.name}' has no step ${located.step} (it has ${scenario.steps.length}).`,
        `${scenario.name}#${located.step} (past the end)`,
      );
    }
    return {
      output: step.output.map((item) => toOutputItem(fillCaptures(item, match, outputsSincePrompt(items)))),
      fault: step.fault,
      trace: `${scenario.name}#${located.step}`,
    };
  }

  /** The first scenario whose pattern matches the prompt, with the match (its groups fill the step's strings). */
  private match(prompt: string): { scenario: Scenario; match: RegExpExecArray } | undefined {
    for (const { scenario, pattern } of this.scenarios) {
      const match = pattern.exec(prompt);
      if (match) return { scenario, match };
    }
    return undefined;
  }
}

function say(text: string, trace: string): ModelTurn {
  return { output: [toOutputItem({ type: 'message', text })], fault: undefined, trace };
}

/** `{{1}}` or `{{name}}`: a numbered or named group of the scenario's `match`. */
const CAPTURE_REFERENCE = /\{\{([1-9]\d*|[A-Za-z_$][\w$]*)\}\}/g;

/**
 * Replaces `{{N}}` and `{{name}}` in `text` with the match's groups. A group of the pattern that did not take
 * part in the match is the empty string; a reference to no group of the pattern (and any other `{{`) is left
 * as written, so a scenario without groups sends its text unchanged.
 */
export function substituteCaptures(text: string, match: RegExpExecArray): string {
  if (!text.includes('{{')) return text;
  return text.replace(CAPTURE_REFERENCE, (whole, ref: string) => {
    if (/^\d/.test(ref)) {
      const index = Number(ref);
      return index < match.length ? (match[index] ?? '') : whole;
    }
    const groups = match.groups;
    return groups !== undefined && Object.hasOwn(groups, ref) ? (groups[ref] ?? '') : whole;
  });
}

/** Every string leaf of a JSON value, substituted; keys and other values as they are. */
function substituteLeaves(value: unknown, substitute: (text: string) => string): unknown {
  if (typeof value === 'string') return substitute(value);
  if (Array.isArray(value)) return value.map((entry) => substituteLeaves(entry, substitute));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, substituteLeaves(entry, substitute)]));
  return value;
}

/**
 * A step's item with the prompt's capture groups filled in: every string of object arguments (before they
 * become JSON text, so quotes and backslashes in the prompt stay valid JSON), string arguments as raw text,
 * a custom call's input, a message's text and a reasoning summary. `outputs`, the call outputs since the
 * prompt, fill `{{output.N.PATH}}` (outputReferences.ts).
 */
export function fillCaptures(
  item: ScenarioItem,
  match: RegExpExecArray,
  outputs: readonly string[] = [],
): ScenarioItem {
  const substitute = (text: string) =>
    substituteOutputs(substituteCaptures(substituteDiffLines(text, match), match), outputs);
  switch (item.type) {
    // A string, a list of strings or an object's leaves alike: substituteLeaves keeps the value's shape.
    case 'function_call':
      return { ...item, arguments: substituteLeaves(item.arguments, substitute) as typeof item.arguments };
    case 'custom_tool_call':
      return { ...item, input: substitute(item.input) };
    case 'message':
      return { ...item, text: substitute(item.text) };
    case 'reasoning':
      return { ...item, summary: substituteLeaves(item.summary, substitute) as typeof item.summary };
  }
}

/** A scenario item as the API returns it, with fresh ids. */
export function toOutputItem(item: ScenarioItem): OutputItem {
  switch (item.type) {
    case 'function_call':
      return {
        type: 'function_call',
        id: newId('fc'),
        call_id: newId('call'),
        name: item.name,
        arguments: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments),
        status: 'completed',
      };
    case 'custom_tool_call':
      return {
        type: 'custom_tool_call',
        id: newId('ctc'),
        call_id: newId('call'),
        name: item.name,
        input: item.input,
        status: 'completed',
      };
    case 'message':
      return {
        type: 'message',
        id: newId('msg'),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: item.text, annotations: [] }],
      };
    case 'reasoning':
      return {
        type: 'reasoning',
        id: newId('rs'),
        summary: (typeof item.summary === 'string' ? [item.summary] : item.summary).map((text) => ({
          type: 'summary_text' as const,
          text,
        })),
      };
  }
}
