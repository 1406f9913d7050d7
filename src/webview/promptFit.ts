// The prompt box as tall as what it holds, within a share of the panel's height: after Stop gives the queued
// prompts back into it, all of them show rather than three rows scrolled to their end, the user's own draft
// out of view. The user's own resize (its handle) holds until the next fit; a send lets it go.

/** The most of the panel's height the box takes by itself. */
const MAX_SHARE = 0.5;

/** Makes `box` as tall as its text (at least its rows, at most half the panel), its caret at `caret`, its top in view. */
export function fitPrompt(box: HTMLTextAreaElement, caret: number): void {
  box.style.height = '';
  const rows = box.clientHeight;
  const borders = box.offsetHeight - box.clientHeight;
  const wanted = Math.max(rows, box.scrollHeight);
  box.style.height = `${Math.min(wanted + borders, Math.floor(window.innerHeight * MAX_SHARE))}px`;
  box.setSelectionRange(caret, caret);
  box.scrollTop = 0;
}

/** Back to its rows (a send emptied it). */
export function unfitPrompt(box: HTMLTextAreaElement): void {
  box.style.height = '';
}
