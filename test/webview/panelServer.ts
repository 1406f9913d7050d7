import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { PANEL_STYLES, chatHtml } from '../../src/extension/chat/window/chatHtml';

// The chat panel's page as a browser loads it inside VS Code, served from 127.0.0.1: the exact HTML of
// chatHtml() (its CSP with `cspSource` = this server's origin, so only this origin's resources load),
// the built bundle and codicons from dist/, media/chat.css, and a theme's variables plus the styles VS Code
// injects into every webview. Only those files are served: anything else is a 404 the tests notice.

/** VS Code's Light Modern, Dark Modern and Dark High Contrast themes. */
export type Theme = 'light' | 'dark' | 'hc-black';

const ROOT = path.resolve(__dirname, '..', '..');

/** URL path → file, the whole of what the page may load. */
const FILES: Record<string, string> = {
  '/dist/webview.js': 'dist/webview.js',
  '/dist/webview.js.map': 'dist/webview.js.map',
  '/dist/codicons/codicon.css': 'dist/codicons/codicon.css',
  '/dist/codicons/codicon.ttf': 'dist/codicons/codicon.ttf',
  ...Object.fromEntries(PANEL_STYLES.map((style) => [`/${style}`, style])),
  '/themes/light.css': 'test/webview/themes/light.css',
  '/themes/dark.css': 'test/webview/themes/dark.css',
  '/themes/hc-black.css': 'test/webview/themes/hc-black.css',
  '/themes/webview-defaults.css': 'test/webview/themes/webview-defaults.css',
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
};

export interface PanelServer {
  origin: string;
  /** The page's address for a theme. */
  url(theme: Theme): string;
  close(): Promise<void>;
}

/** Fails with what to do when the bundle is missing, rather than a page that silently never loads. */
function checkBuilt(): void {
  const missing = Object.values(FILES).filter((file) => !fs.existsSync(path.join(ROOT, file)));
  if (missing.length > 0)
    throw new Error(`The webview tests need the built panel: ${missing.join(', ')} missing. Run \`node esbuild.js\`.`);
}

export async function startPanelServer(): Promise<PanelServer> {
  checkBuilt();
  let origin = '';
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const theme = /^\/panel\/(light|dark|hc-black)$/.exec(url.pathname)?.[1];
    if (theme !== undefined) {
      const html = chatHtml({
        cspSource: origin,
        scriptUri: `${origin}/dist/webview.js`,
        // The theme first and VS Code's defaults next, as the workbench injects them before the page's own.
        styleUris: [
          `${origin}/themes/${theme}.css`,
          `${origin}/themes/webview-defaults.css`,
          `${origin}/dist/codicons/codicon.css`,
          ...PANEL_STYLES.map((style) => `${origin}/${style}`),
        ],
        nonce: randomBytes(16).toString('base64'),
      });
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(html);
      return;
    }
    if (url.pathname === '/favicon.ico') {
      // Chromium asks for one by itself; the page never does.
      response.writeHead(204);
      response.end();
      return;
    }
    const file = FILES[url.pathname];
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    fs.readFile(path.join(ROOT, file), (error, body) => {
      if (error) {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(error.message);
        return;
      }
      response.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      response.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (theme) => `${origin}/panel/${theme}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
