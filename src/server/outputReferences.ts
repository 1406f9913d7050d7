import { type AnyInputItem, isPrompt } from '../protocol';

// A scenario step may use what the calls before it returned: `{{output.N.PATH}}` in any of its strings is the
// field PATH (dot-separated) of the JSON the N-th call output since the prompt holds — the id `spawn_agent`
// answered, which the step that waits for that subagent names. A reference to an output or a field that is
// not there is left as written, as an unknown capture is (scriptedModel.ts).

const OUTPUT_REFERENCE = /\{\{output\.([1-9]\d*)((?:\.[\w$-]+)+)\}\}/g;

/** The text of each call output after the latest prompt, in order. */
export function outputsSincePrompt(items: readonly AnyInputItem[]): string[] {
  let from = items.length - 1;
  while (from >= 0 && !isPrompt(items[from] as AnyInputItem)) from--;
  return items.slice(from + 1).flatMap((item) => {
    const record = item as { type?: unknown; output?: unknown };
    if (record.type !== 'function_call_output' && record.type !== 'custom_tool_call_output') return [];
    if (typeof record.output === 'string') return [record.output];
    if (!Array.isArray(record.output)) return [''];
    return [
      record.output
        .map((part: unknown) =>
          typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '',
        )
        .join(''),
    ];
  });
}

/** The value at `path` of `output`'s JSON, as text; undefined where there is none. */
function fieldOf(output: string | undefined, path: string[]): string | undefined {
  if (output === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return undefined;
  }
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `text` with its output references filled from `outputs` (outputsSincePrompt). */
export function substituteOutputs(text: string, outputs: readonly string[]): string {
  if (!text.includes('{{output.')) return text;
  return text.replace(OUTPUT_REFERENCE, (whole, index: string, path: string) => {
    const value = fieldOf(outputs[Number(index) - 1], path.slice(1).split('.'));
    return value ?? whole;
  });
}
