// One short line saying what a tool call asks for — its path, pattern, query or label — for people watching
// the loop (the CLI's line per call, the chat panel's card title). Works on input still being written.

const MAIN_ARGUMENTS = ['path', 'pattern', 'query', 'label'];

export function summarizeCall(name: string, input: string): string {
  if (name === 'apply_patch') {
    const paths = [...input.matchAll(/^\*\*\* (?:Add|Delete|Update) File: (.+)$/gm)].map((match) =>
      (match[1] ?? '').trim(),
    );
    return paths.join(', ');
  }
  try {
    const args = JSON.parse(input) as Record<string, unknown>;
    if (name === 'apply_patch' && typeof args.input === 'string') return summarizeCall(name, args.input);
    const main = MAIN_ARGUMENTS.map((key) => args[key]).find((value) => typeof value === 'string');
    return typeof main === 'string' ? main : '';
  } catch {
    // Arguments still streaming: the first main argument whose string is already complete.
    for (const key of MAIN_ARGUMENTS) {
      const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(input);
      if (match?.[1] !== undefined) {
        try {
          return JSON.parse(`"${match[1]}"`) as string;
        } catch {
          return match[1];
        }
      }
    }
    return '';
  }
}
