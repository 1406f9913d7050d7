import { t } from '@vscode/l10n';
import type { TransportFault } from './transportFault';

// A fault as the person reads it (a stop line, the terminal's error): describeFault's words in their language.
// describeFault stays English: its text is also a WebSocket close frame's reason (at most 123 bytes, read by
// the server's logs) and the log's. What the API or the system said inside it (a message, an error code)
// stays as they said it. In English the two read the same.

/** `describeFault(fault)` in the person's language. */
export function faultDisplay(fault: TransportFault): string {
  switch (fault.kind) {
    case 'closed':
      return fault.beforeFirstEvent
        ? t('the connection closed before the response started ({0})', fault.message)
        : t('the connection closed mid-response ({0})', fault.message);
    case 'connect_failed':
      // The message may name the status already ("the upgrade was refused with HTTP 401"): said once.
      return fault.status === undefined || fault.message.includes(`HTTP ${fault.status}`)
        ? t('could not connect: {0}', fault.message)
        : t('could not connect (HTTP {0}): {1}', fault.status, fault.message);
    case 'api_error': {
      const { status, code, message } = fault.error;
      return `${code ?? 'error'}${status === undefined ? '' : ` (${status})`}: ${message}`;
    }
    case 'response_failed':
      return t('the response failed: {0}: {1}', fault.code ?? 'error', fault.message);
    case 'malformed':
      return t('a malformed frame: {0}', fault.message);
    case 'stalled':
      return t(
        'no event for {0} s',
        fault.idleMs < 10_000 ? (fault.idleMs / 1000).toFixed(1) : String(Math.round(fault.idleMs / 1000)),
      );
  }
}
