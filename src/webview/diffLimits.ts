// How much of a diff a card draws (no DOM here: the page's tests read these too).

import { STREAMING_TAIL_LINES } from '../protocol/diffTail';

export { STREAMING_TAIL_LINES };

/**
 * Lines a file's diff shows before "Show all": a long one (a new 50 KB file is 800 lines) would take the
 * page a tenth of a second to draw, at every change of its card; the diff editor shows it whole. As many as
 * a file being written shows, so that its card keeps its height when the call is complete, and the frame
 * that draws it done (with the answer after it) stays short.
 */
export const FOLDED_DIFF_LINES = STREAMING_TAIL_LINES;
