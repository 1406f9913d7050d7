import type { Scenario } from './scenarioFile';

// What the scripted model says to a prompt no scenario matches. The one who reads it is most often a new user who
// typed a prompt of their own on the offline backend: they need to learn, in a few words, that this model only
// plays the demo's tasks and how to choose a real one, in whichever front end they use (a flag of loopwire exec,
// a command of VS Code). A list of the prompts it does answer was too long for an inline edit's notification and
// buried that point: the list is in docs/backend.md. A scenario author still learns how to add one (`hint`).

/** How to add a scenario when the front end does not say: the standalone server's flag. */
export const DEFAULT_SCENARIO_HINT = 'start loopwire-server with --scenario FILE';

/** What it says of the prompt. */
const NO_MATCH_SAYS = 'no scenario matches this prompt';

/** The answer's first words, by which a front end tells it from a model's answer (isNoMatchAnswer). */
export const NO_MATCH_OPENING = "Loopwire's offline model";

/** The most the answer may take: it must fit a notification and read at a glance. */
export const NO_MATCH_MAX = 300;

/**
 * The no-match answer: the offline model knows only the demo's tasks (or has no scenario at all), a real model is
 * chosen with `--endpoint URL` or Loopwire: Select Endpoint…, and `hint`, an imperative clause that follows
 * "write a scenario file and …" (e.g. "add --scenario FILE to loopwire exec"). A hint that would take the
 * answer past NO_MATCH_MAX is left out.
 */
export function noMatchAnswer(scenarios: readonly Scenario[], hint = DEFAULT_SCENARIO_HINT): string {
  const knows = scenarios.length === 0 ? 'has no scenario loaded' : "knows only the demo's tasks";
  const answer = [
    `${NO_MATCH_OPENING} ${knows}: ${NO_MATCH_SAYS}.`,
    'For a real model, choose an endpoint: `--endpoint URL` (loopwire exec) or Loopwire: Select Endpoint… (VS Code).',
  ].join(' ');
  const teach = ` To teach it this prompt, write a scenario file and ${hint}.`;
  return answer.length + teach.length <= NO_MATCH_MAX ? answer + teach : answer;
}

/** Whether `text` is the answer to a prompt no scenario matched (an inline edit shows it as a short notice). */
export function isNoMatchAnswer(text: string): boolean {
  return text.startsWith(NO_MATCH_OPENING) && text.includes(NO_MATCH_SAYS);
}
