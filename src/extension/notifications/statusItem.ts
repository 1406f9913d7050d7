import * as vscode from 'vscode';
import type { AgentEvent } from '../../agent';
import { meterLine } from '../../protocol/contextMeter';

// The status-bar item: the transport in use and the last turn's client overhead, and in its tooltip the
// token meter's line (how full the context is); a click opens the log.

export function statusItem(): { item: vscode.StatusBarItem; update(event: AgentEvent): void } {
  const item = vscode.window.createStatusBarItem('loopwire.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Loopwire';
  item.command = 'loopwire.showLog';
  item.text = '$(plug) Loopwire';
  item.tooltip = vscode.l10n.t('Loopwire: not connected yet (it connects on first use). Click for the log.');
  item.show();
  let transport = vscode.l10n.t('not connected');
  let turn = '';
  let context: { tokens: number; window: number } | undefined;
  const tooltip = () =>
    [
      turn,
      context
        ? `${meterLine(context, (tokens, window, percent) => vscode.l10n.t('Context: {0} of {1} tokens ({2}%)', tokens, window, percent))}.`
        : '',
      vscode.l10n.t('Click for the log.'),
    ]
      .filter(Boolean)
      .join('\n');
  return {
    item,
    update(event) {
      if (event.type === 'transport') {
        transport =
          event.state === 'closed' ? vscode.l10n.t('offline') : event.transport === 'ws' ? 'WebSocket' : 'HTTP';
        if (event.state === 'reconnecting')
          transport = vscode.l10n.t('WebSocket, reconnecting {0}/{1}', event.attempt ?? '', event.maxAttempts ?? '');
        if (event.state === 'http_fallback') transport = vscode.l10n.t('HTTP (WebSocket kept failing)');
        item.text = `$(plug) Loopwire: ${transport}`;
      } else if (event.type === 'turn_finished') {
        const { metrics } = event;
        const overhead = metrics.overheadBeforeMs + (metrics.overheadAfterMs ?? 0);
        item.text = `$(plug) Loopwire: ${metrics.transport === 'ws' ? 'WebSocket' : 'HTTP'} · ${overhead.toFixed(2)} ms`;
        turn = vscode.l10n.t(
          "Loopwire over {0}: the last turn's client overhead was {1} ms, {2} bytes sent.",
          transport,
          overhead.toFixed(2),
          metrics.bytesSent,
        );
        if (metrics.contextWindow !== undefined)
          context = { tokens: metrics.contextTokens, window: metrics.contextWindow };
        item.tooltip = tooltip();
      } else if (event.type === 'compacted' && context) {
        context = { ...context, tokens: event.tokensAfter };
        item.tooltip = tooltip();
      }
    },
  };
}
