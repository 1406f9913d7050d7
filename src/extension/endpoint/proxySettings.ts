import * as vscode from 'vscode';
import type { ProxySettings } from '../../agent/activation';

// VS Code's proxy settings as Loopwire's requests take them. VS Code already routes an extension's `http`,
// `https` and (1.92 and later) `fetch` through its own proxy support, which with `http.proxySupport` at
// `override` (the default) replaces any agent or dispatcher an extension passes with one for the proxy it
// resolves itself: `http.proxy`, else the environment, else the system's (PAC), with its proxy credentials
// and certificates. So Loopwire composes with it: when `http.proxy` is set it passes that proxy explicitly,
// with `http.noProxy` and `http.proxyStrictSSL` (what VS Code resolves too, so the two agree, and what
// takes effect where VS Code leaves an extension's agent alone: `http.proxySupport` `on` or `off`, localhost,
// older versions' `fetch`); otherwise it follows the environment as the CLI does, and a system proxy is VS
// Code's alone to apply.

/** The settings read here: a change to one rebuilds the backend (windowBackend.ts). */
export const PROXY_SETTINGS = ['http.proxy', 'http.noProxy', 'http.proxyStrictSSL'];

export function proxySettings(): ProxySettings {
  const http = vscode.workspace.getConfiguration('http');
  const url = http.get<string>('proxy')?.trim();
  const noProxy = http.get<string[]>('noProxy') ?? [];
  return {
    ...(url ? { url } : {}),
    ...(noProxy.length > 0 ? { noProxy } : {}),
    strictSSL: http.get<boolean>('proxyStrictSSL') !== false,
  };
}
