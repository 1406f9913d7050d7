import * as fs from 'node:fs';
import * as z from 'zod';
import { Fault } from './faults';

// The scripted model's scenario files (docs/backend.md, "Scenario files"). This form is a contract: tests outside the
// project write it. Objects are strict so that a misspelt key is an error, not a silently ignored wish.

/** One output item a step produces; the server assigns item ids and `call_id`s. */
export const ScenarioItem = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('function_call'),
    name: z.string().min(1),
    /** An object is sent as its JSON text; a string is sent as given (for deliberately odd arguments). */
    arguments: z.union([z.record(z.string(), z.unknown()), z.string()]),
  }),
  z.strictObject({ type: z.literal('custom_tool_call'), name: z.string().min(1), input: z.string() }),
  z.strictObject({ type: z.literal('message'), text: z.string() }),
  z.strictObject({
    type: z.literal('reasoning'),
    /** Summary parts, streamed as `response.reasoning_summary_*` events. */
    summary: z.union([z.string(), z.array(z.string())]).default([]),
  }),
]);

export const ScenarioStep = z.strictObject({
  output: z.array(ScenarioItem).min(1),
  /** Something to go wrong while this step is answered (the reliability suites). */
  fault: Fault.optional(),
});

const Pattern = z.string().superRefine((source, ctx) => {
  try {
    new RegExp(source, 'i');
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(error as Error).message}` });
  }
});

export const Scenario = z.strictObject({
  name: z.string().min(1),
  /**
   * A JavaScript regular expression, case-insensitive, tested against the latest user message. Its groups
   * fill `{{1}}`, `{{2}}`… and `{{name}}` (for `(?<name>…)`) in the steps' strings: each string of object
   * arguments, string arguments, a custom call's input, a message's text, a reasoning summary. A group that
   * did not take part is the empty string; a reference to no group of the pattern is left as written.
   */
  match: Pattern,
  /**
   * A prompt this scenario answers, as a person would type it (its `match` must fit it). The no-match answer
   * offers a few of these, so someone who typed something else learns what the loaded scenarios understand.
   */
  example: z.string().min(1).optional(),
  /** Step k answers the k-th model response since that message. */
  steps: z.array(ScenarioStep).min(1),
});

export const ScenarioFile = z.strictObject({ scenarios: z.array(Scenario) });

export type ScenarioItem = z.infer<typeof ScenarioItem>;
export type ScenarioStep = z.infer<typeof ScenarioStep>;
export type Scenario = z.infer<typeof Scenario>;
export type ScenarioFile = z.infer<typeof ScenarioFile>;

/** A scenario file that could not be used, with the file and the field at fault in the message. */
export class ScenarioFileError extends Error {
  readonly code = 'invalid_scenario_file';
}

/** Parses scenario JSON text; `source` names it in errors. */
export function parseScenarioFile(text: string, source: string): ScenarioFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ScenarioFileError(`${source}: not JSON: ${(error as Error).message}`);
  }
  const result = ScenarioFile.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? issue.path.map(String).join('.') : '(top level)';
    throw new ScenarioFileError(`${source}: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

/** Reads and parses a scenario file from disk. */
export function loadScenarioFile(file: string): ScenarioFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScenarioFileError(`${file}: cannot read: ${(error as Error).message}`);
  }
  return parseScenarioFile(text, file);
}
