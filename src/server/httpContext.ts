import type { Socket } from 'node:net';
import type { AdminApi } from './adminApi';
import type { ResponseStore } from './responseStore';
import type { ResolvedOptions } from './serverOptions';
import type { TurnService } from './turnService';
import type { WireLog } from './wireLog';

// What every HTTP route handler runs with. Its own file so that the router (httpApi.ts) and the routes it
// hands requests to (compactApi.ts, …) both import it, and neither imports the other back.

export interface HttpContext {
  options: ResolvedOptions;
  service: TurnService;
  store: ResponseStore;
  wireLog: WireLog;
  admin: AdminApi;
  /** The id the wire log gives the connection a request came on. */
  connectionId: (socket: Socket) => string;
}
