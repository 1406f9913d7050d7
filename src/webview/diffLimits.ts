// How much of a diff a card draws (no DOM here: the page's tests read these too).

export { STREAMING_TAIL_LINES } from '../protocol/diffTail';

/**
 * Lines a file's diff shows before "Show all": a long one (a new 50 KB file is 800 lines) would take the
 * page a tenth of a second to draw, at every change of its card; the diff editor shows it whole.
 */
export const FOLDED_DIFF_LINES = 120;
