import { z } from 'zod';

// The IPC messages between the bench and its network proxy's process (netemProxyMain.ts): one schema each.

export const NetemRequest = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('counters'), id: z.number().int() }),
  z.strictObject({ type: z.literal('close') }),
]);
export type NetemRequest = z.infer<typeof NetemRequest>;

export const NetemReply = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('listening'), port: z.number().int() }),
  z.strictObject({
    type: z.literal('counters'),
    id: z.number().int(),
    connections: z.number().int(),
    bytesUp: z.number().int(),
    bytesDown: z.number().int(),
  }),
]);
export type NetemReply = z.infer<typeof NetemReply>;
