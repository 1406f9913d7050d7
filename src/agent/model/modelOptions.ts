import * as z from 'zod';
import { modelProfile } from './modelCatalogue';

// How hard the model thinks, whether it says so, and how much it writes: the `reasoning` and `text`
// request fields, from the CLI's flags and the extension's settings alike (docs/endpoints.md).

/**
 * `default` is the model catalogue's default for the model (modelCatalogue.ts: `medium` for GPT-5 and Codex
 * models), and sends nothing for a model the catalogue gives none; `none` sends `effort: "none"`.
 */
export const ReasoningEffort = z.enum(['default', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
/** `auto` asks for reasoning summaries, which stream into the CLI and the panel's Thinking section. */
export const ReasoningSummary = z.enum(['auto', 'off']);
export const Verbosity = z.enum(['default', 'low', 'medium', 'high']);

export const ModelOptions = z.object({
  reasoningEffort: ReasoningEffort.default('default'),
  reasoningSummary: ReasoningSummary.default('auto'),
  verbosity: Verbosity.default('default'),
});

export type ReasoningEffort = z.infer<typeof ReasoningEffort>;
export type ReasoningSummary = z.infer<typeof ReasoningSummary>;
export type Verbosity = z.infer<typeof Verbosity>;
export type ModelOptions = z.infer<typeof ModelOptions>;

/** Options as a user set them (VS Code settings): each field that is not one of its values is its default. */
export function modelOptionsFrom(raw: Record<keyof ModelOptions, unknown>): ModelOptions {
  return {
    reasoningEffort: ReasoningEffort.catch('default').parse(raw.reasoningEffort),
    reasoningSummary: ReasoningSummary.catch('auto').parse(raw.reasoningSummary),
    verbosity: Verbosity.catch('default').parse(raw.verbosity),
  };
}

/** A name of the reasoning families (GPT-5 and later, the o-series, Codex, gpt-oss), for models the catalogue does not know. */
const reasoningName = (model: string): boolean =>
  /^(gpt-[5-9]|gpt-\d{2,}|o\d|codex|gpt-oss)/i.test(model.replace(/^.*\//, ''));

/**
 * The request fields for `options` on `model`: `reasoning`, `text` and `parallel_tool_calls`, each only when it
 * says something. A choice of the user's wins; `default` is the catalogue's value, where it has one.
 */
export function modelFields(model: string, options: Partial<ModelOptions> = {}): Record<string, unknown> {
  const { reasoningEffort, reasoningSummary, verbosity: chosenVerbosity } = ModelOptions.parse(options);
  const profile = modelProfile(model);
  const effort = reasoningEffort === 'default' ? profile.effort : reasoningEffort;
  const verbosity = chosenVerbosity === 'default' ? profile.verbosity : chosenVerbosity;
  const reasoning: Record<string, string> = {};
  if (effort !== undefined) reasoning.effort = effort;
  // A model the catalogue does not know gets a reasoning field only with an effort the user picked: a server
  // for a model that does not reason may refuse one.
  const reasons = profile.reasons || (effort !== undefined && reasoningName(model));
  if (reasoningSummary === 'auto' && reasons && effort !== 'none') reasoning.summary = 'auto';
  return {
    ...(Object.keys(reasoning).length > 0 ? { reasoning } : {}),
    ...(verbosity === undefined ? {} : { text: { verbosity } }),
    ...(profile.parallelCalls === undefined ? {} : { parallel_tool_calls: profile.parallelCalls }),
  };
}
