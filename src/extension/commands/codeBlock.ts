// Code put into a prompt as a markdown code block: the panel shows it as code, with its indentation, and the
// model reads where it starts and ends. Plain (tested without VS Code).

/** `text` fenced by more backticks than any run inside it (at least three), tagged with `language`. */
export function codeBlock(text: string, language = ''): string {
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((run) => run[0].length + 1)));
  return [`${fence}${language}`, text, fence].join('\n');
}
