import type { Scenario } from './scenarioFile';

// What the scripted model says to a prompt no scenario matches. Someone who typed a prompt of their own
// needs two things: prompts it does understand (the scenarios' `example`s) and how to teach it theirs, in
// the front end they are using (a flag of loopwire-server or of loopwire exec, a VS Code setting).

/** How to add a scenario when the front end does not say: the standalone server's flag. */
export const DEFAULT_SCENARIO_HINT = 'start loopwire-server with --scenario FILE';

/** Examples offered at most. */
const MAX_EXAMPLES = 8;
/** Examples up to this length come first: a short prompt is easier to try than a generated one. */
const SHORT_EXAMPLE = 60;

/**
 * The no-match answer: how many scenarios are loaded, a few of their example prompts (scenarios without one
 * are named instead when none has one), and `hint`, an imperative clause that follows "write a scenario file
 * and …" (e.g. "add --scenario FILE to loopwire exec").
 */
export function noMatchAnswer(scenarios: readonly Scenario[], hint = DEFAULT_SCENARIO_HINT): string {
  const lines = ['loopwire-server: no scenario matches this prompt.'];
  if (scenarios.length === 0) {
    lines.push('Its scripted model answers only prompts that a scenario\'s "match" fits, and none is loaded.');
  } else {
    const loaded = `${scenarios.length} scenario(s) loaded`;
    const examples = examplePrompts(scenarios);
    if (examples.length > 0) {
      lines.push(`Its scripted model answers only prompts that a scenario's "match" fits (${loaded}), such as:`);
      lines.push(...examples.map((example) => `- ${codeSpan(example)}`));
      // A blank line ends the list: in markdown (the chat panel) a line right after it joins its last item.
      lines.push('');
    } else {
      const names = scenarios.slice(0, MAX_EXAMPLES).map((scenario) => `'${scenario.name}'`);
      const more = scenarios.length > MAX_EXAMPLES ? ', …' : '';
      lines.push(
        `Its scripted model answers only prompts that a scenario's "match" fits (${loaded}: ${names.join(', ')}${more}).`,
      );
    }
  }
  lines.push(`To answer other prompts, write a scenario file and ${hint}.`);
  return lines.join('\n');
}

/** Up to MAX_EXAMPLES distinct examples, short ones first, each group in load order (the first file's first). */
function examplePrompts(scenarios: readonly Scenario[]): string[] {
  const all = [...new Set(scenarios.flatMap((scenario) => (scenario.example ? [oneLine(scenario.example)] : [])))];
  const short = all.filter((example) => example.length <= SHORT_EXAMPLE);
  const long = all.filter((example) => example.length > SHORT_EXAMPLE);
  return [...short, ...long].slice(0, MAX_EXAMPLES);
}

/** An example on one line, so that it stays one item of the list. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');

/** Markdown code span of `text` as typed: fenced by a longer run of backticks than any inside it. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return longest === 0 ? `${fence}${text}${fence}` : `${fence} ${text} ${fence}`;
}
