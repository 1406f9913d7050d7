import * as vscode from 'vscode';

// The embedded backend listens on 127.0.0.1 for this window's extension host alone. A remote window
// (code-server, SSH, containers) scans the host's listening ports and auto-forwards what it finds, so the
// backend showed up under Ports as "Code Extension Host, Auto Forwarded". A PortAttributesProvider marks
// the port `Ignore`. That API is still a proposal (`portsAttributes`, in VS Code 1.139 too; not in
// @types/vscode), and the manifest declares none: the Marketplace refuses any extension that does. So the
// provider is registered only where the host offers the API to every extension (code-server does: its Ports
// view is where the problem was seen, and the workbench suite checks it stays empty). A stable desktop build
// does not: there the provider is skipped, logged once per backend — a local window forwards nothing, and over
// Remote-SSH the user can set `remote.portsAttributes` for the port (the README says so).

/** `vscode.PortAutoForwardAction.Ignore`: the enum exists only where the proposal does. */
const IGNORE = 5;

/** The proposal's provider; the host passes `{ port, pid, commandLine }` (older builds: the port first). */
export interface PortAttributesProvider {
  providePortAttributes(
    asked: number | { port: number },
    token?: vscode.CancellationToken,
  ): { autoForwardAction: number } | undefined;
}

interface PortsProposal {
  registerPortAttributesProvider?: (
    selector: { portRange?: [number, number] | number },
    provider: PortAttributesProvider,
  ) => vscode.Disposable;
}

/** Attributes for `port` alone: not forwarded. Undefined for any other port (the provider's contract). */
export function ignoredPort(port: number): PortAttributesProvider {
  const action = (vscode as { PortAutoForwardAction?: { Ignore?: number } }).PortAutoForwardAction?.Ignore ?? IGNORE;
  return {
    providePortAttributes: (asked) =>
      (typeof asked === 'number' ? asked : asked.port) === port ? { autoForwardAction: action } : undefined,
  };
}

/**
 * Tells the window not to forward `port` (the embedded backend's), for as long as the returned registration
 * lives; undefined where the host offers no such API (then `log` says why, once).
 */
export function ignorePortForwarding(port: number, log: (line: string) => void): vscode.Disposable | undefined {
  const register = (vscode.workspace as PortsProposal).registerPortAttributesProvider;
  if (typeof register !== 'function') {
    log(`port ${port}: this VS Code has no port attributes API; a remote window may forward it`);
    return undefined;
  }
  try {
    // A selector with the port alone: the host asks about no other port.
    return register.call(vscode.workspace, { portRange: [port, port + 1] }, ignoredPort(port));
  } catch (error) {
    log(
      `port ${port}: not marked as ignored (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
    return undefined;
  }
}
