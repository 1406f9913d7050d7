// What a stranger wrote reaches the user's terminal in many places of `loopwire exec`: tool output (the
// workspace's text), the model's answer and reasoning (which may echo a repository), a hook's reason, a skill's
// or prompt file's description, a custom agent's handoff, a review's findings. None of it may move the cursor,
// recolour the screen, or fill the clipboard (an OSC 52 sequence). Loopwire's own colours are added after this,
// never passed through it.

/**
 * Escape sequences (a CSI one whole, another's introducer) and the control characters but the tab and the
 * line break. Built from a string because a literal with control characters needs a lint exception that the
 * layering lint (another config) reports as unused.
 */
const ESC = '\u001b';
const SEQUENCES = new RegExp(`${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}[@-_]|[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]`, 'g');
const CONTROL_RANGES = '\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f';
const CONTROLS = new RegExp(`[${CONTROL_RANGES}]`, 'g');

/**
 * Output as it may be printed (a tool's, the model's text, a notice): escape sequences go whole, and every
 * control character but the tab (code keeps its indentation) and the line break.
 */
export function terminalOutput(text: string): string {
  return text.replace(SEQUENCES, '');
}

/** A name, a description, a label as it may be printed: every control character goes but the line break. */
export function terminalText(text: string): string {
  return text.replace(CONTROLS, '');
}
