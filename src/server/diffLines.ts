// A scenario can cite a line of a diff in its prompt by the line's number in the file: `{{diff_line.NAME}}` is
// the number, on the diff's new side, of the line where group NAME of the scenario's `match` begins — counted
// from the nearest hunk header before it (`@@ -a,b +c,d @@`), each context (` `) and added (`+`) line one
// more, removed (`-`) lines none. So a review's answer names the line of what it found wherever the change
// sits in the file (docs/backend.md, "Scenario files"). Where the group did not take part, or does not sit on
// a context or added line of a hunk, the reference is left as written, as an unknown capture is.

const DIFF_LINE_REFERENCE = /\{\{diff_line\.([A-Za-z_$][\w$]*)\}\}/g;

/** `text` with each `{{diff_line.NAME}}` filled from `match` (made with the `d` flag, for the groups' places). */
export function substituteDiffLines(text: string, match: RegExpExecArray): string {
  if (!text.includes('{{diff_line.')) return text;
  return text.replace(DIFF_LINE_REFERENCE, (whole, name: string) => {
    const at = match.indices?.groups?.[name]?.[0];
    const line = at === undefined ? undefined : newSideLine(match.input, at);
    return line === undefined ? whole : String(line);
  });
}

/** The new side's line number of the diff line holding offset `at` of `diff`; undefined where there is none. */
export function newSideLine(diff: string, at: number): number | undefined {
  const lineStart = diff.lastIndexOf('\n', at - 1) + 1;
  const before = diff.slice(0, lineStart).split('\n');
  before.pop();
  const own = diff[lineStart];
  if (own !== ' ' && own !== '+') return undefined;
  let count = 0;
  for (let index = before.length - 1; index >= 0; index--) {
    const line = before[index] ?? '';
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) return Number(header[1]) + count;
    if (line.startsWith('diff --git ') || line.startsWith('+++ ') || line.startsWith('--- ')) return undefined;
    if (line.startsWith(' ') || line.startsWith('+')) count++;
    else if (!line.startsWith('-') && !line.startsWith('\\')) return undefined;
  }
  return undefined;
}
