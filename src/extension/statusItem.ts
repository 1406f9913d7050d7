import * as vscode from 'vscode';
import type { AgentEvent } from '../agent';

// The status-bar item: the transport in use and the last turn's client overhead; a click opens the log.

export function statusItem(): { item: vscode.StatusBarItem; update(event: AgentEvent): void } {
  const item = vscode.window.createStatusBarItem('loopwire.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Loopwire';
  item.command = 'loopwire.showLog';
  item.text = '$(plug) Loopwire';
  item.tooltip = 'Loopwire: not connected yet (it connects on first use). Click for the log.';
  item.show();
  let transport = 'not connected';
  return {
    item,
    update(event) {
      if (event.type === 'transport') {
        transport = event.state === 'closed' ? 'offline' : event.transport === 'ws' ? 'WebSocket' : 'HTTP';
        if (event.state === 'reconnecting')
          transport = `WebSocket, reconnecting ${event.attempt ?? ''}/${event.maxAttempts ?? ''}`;
        if (event.state === 'http_fallback') transport = 'HTTP (WebSocket kept failing)';
        item.text = `$(plug) Loopwire: ${transport}`;
      } else if (event.type === 'turn_finished') {
        const overhead = event.metrics.overheadBeforeMs + (event.metrics.overheadAfterMs ?? 0);
        item.text = `$(plug) Loopwire: ${event.metrics.transport === 'ws' ? 'WebSocket' : 'HTTP'} · ${overhead.toFixed(2)} ms`;
        item.tooltip = `Loopwire over ${transport}: the last turn's client overhead was ${overhead.toFixed(2)} ms, ${event.metrics.bytesSent} bytes sent. Click for the log.`;
      }
    },
  };
}
