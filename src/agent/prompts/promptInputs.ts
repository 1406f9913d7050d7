// A prompt file's placeholders, filled from what follows its name (`/name args`). `${input:NAME}` and
// `${input:NAME:PLACEHOLDER}` are VS Code's input variables (the placeholder is the hint its input box shows, not a
// default): `NAME=value` (or `NAME="a value"`) fills NAME; the rest of the words, together, fill the first input no
// `NAME=` filled. An input filled nowhere is missing, and the prompt is not sent. Words left over (no input left to
// fill, or a `NAME=` the file has no input for) follow the prompt after a blank line, as extra information, as
// VS Code adds what is typed after a prompt's name. `${workspaceFolder}` and `${workspaceFolderBasename}` are the
// workspace folder; the editor's variables (`${selection}`, `${file}`…) have no meaning outside the editor and
// are left as written.

const INPUT = /\$\{input:([\w.-]+)(?::([^}]*))?\}/g;

/** An input variable of a prompt: its name and its placeholder (hint), if any. */
export interface PromptInput {
  name: string;
  placeholder?: string;
}

/** The input variables of `body`, each once, in the order they first appear. */
export function promptInputs(body: string): PromptInput[] {
  const inputs: PromptInput[] = [];
  for (const match of body.matchAll(INPUT)) {
    const name = match[1] ?? '';
    if (inputs.some((input) => input.name === name)) continue;
    const placeholder = match[2]?.trim();
    inputs.push(placeholder ? { name, placeholder } : { name });
  }
  return inputs;
}

/**
 * The words of `args`: a word that starts with a quote runs to its closing quote (which are removed), as does
 * the value of `NAME="…"`; other quotes stay (`the user's cart`). `NAME=value` words are named.
 */
export function promptArguments(args: string): { named: Map<string, string>; bare: string[] } {
  const named = new Map<string, string>();
  const bare: string[] = [];
  for (const match of args.matchAll(/(?<![^\s])(?:([\w.-]+)=)?(?:"([^"]*)"|'([^']*)'|(\S*))(?!\S)/g)) {
    const [word, name, doubled, single, plain] = match;
    const value = doubled ?? single ?? plain ?? '';
    if (name !== undefined) named.set(name, value);
    else if (word !== '') bare.push(value);
  }
  return { named, bare };
}

/** What filling gives: the prompt, or the inputs nothing filled. */
export type FilledPrompt = { text: string } | { missing: PromptInput[] };

/** `body` with its inputs filled from `args` and the workspace variables from `workspaceFolder`. */
export function fillPrompt(body: string, args: string, workspaceFolder: string): FilledPrompt {
  const inputs = promptInputs(body);
  const { named, bare } = promptArguments(args);
  const values = new Map<string, string>();
  for (const input of inputs) {
    const value = named.get(input.name);
    if (value !== undefined) values.set(input.name, value);
  }
  const firstOpen = inputs.find((input) => !values.has(input.name));
  if (firstOpen && bare.length > 0) values.set(firstOpen.name, bare.join(' '));
  const missing = inputs.filter((input) => !values.has(input.name));
  if (missing.length > 0) return { missing };
  const leftover = [
    ...[...named].filter(([name]) => !inputs.some((input) => input.name === name)).map(([k, v]) => `${k}=${v}`),
    ...(firstOpen ? [] : bare),
  ].join(' ');
  const text = body
    .replace(INPUT, (_all, name: string) => values.get(name) ?? '')
    .replace(/\$\{workspaceFolder\}/g, () => workspaceFolder)
    .replace(/\$\{workspaceFolderBasename\}/g, () => basename(workspaceFolder));
  return { text: leftover === '' ? text : `${text}\n\n${leftover}` };
}

function basename(folder: string): string {
  const parts = folder.split(/[\\/]/).filter((part) => part !== '');
  return parts[parts.length - 1] ?? folder;
}
