// What a repository wrote (a skill's folder and description, a prompt file's description and hint, a custom
// agent's file) is printed on the user's terminal by `/help`, `/skills` and the lines that say a file was not
// used. A stranger's escape sequence must not reach it: an OSC 52 one fills the clipboard, CSI ones redraw or
// hide what is shown. Loopwire's own colours are added after this, never passed through it.

/** `text` without control characters, line breaks kept. */
export function terminalText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
}
