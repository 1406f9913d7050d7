import { z } from 'zod';
import { startNetemProxy } from './netemProxy';
import { NetemRequest, type NetemReply } from './netemWire';

// The bench's network proxy in its own process (networkRoute.ts forks it), so that forwarding and pacing the
// bytes neither counts as the client's CPU time nor waits behind the client's work in one event loop. It
// takes its target and line from argv (JSON), reports its port over IPC, answers each counters request and
// stops on `close` or when its parent goes.

const Start = z.strictObject({
  host: z.string(),
  port: z.number().int(),
  rttMs: z.number().nonnegative(),
  // JSON has no Infinity: null is no limit.
  uplinkBitsPerSecond: z.number().positive().nullable(),
  downlinkBitsPerSecond: z.number().positive().nullable(),
});

async function main(): Promise<void> {
  const start = Start.parse(JSON.parse(process.argv[2] ?? '{}'));
  const proxy = await startNetemProxy(
    { host: start.host, port: start.port },
    {
      rttMs: start.rttMs,
      uplinkBitsPerSecond: start.uplinkBitsPerSecond ?? Infinity,
      downlinkBitsPerSecond: start.downlinkBitsPerSecond ?? Infinity,
    },
  );
  const reply = (message: NetemReply) => process.send?.(message);
  reply({ type: 'listening', port: proxy.port });
  process.on('message', (raw: unknown) => {
    const request = NetemRequest.parse(raw);
    if (request.type === 'counters') reply({ type: 'counters', id: request.id, ...proxy.counters() });
    else void proxy.close().then(() => process.exit(0));
  });
  process.once('disconnect', () => void proxy.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
