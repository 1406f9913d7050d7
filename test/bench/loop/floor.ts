import { spawn } from 'node:child_process';
import * as path from 'node:path';
import WebSocket from 'ws';

// The physical floor of a turn's overhead on this machine: a bare loopback WebSocket round trip to an echo
// server in another process, with a 4 KB payload and with the mean turn's payload.

const ECHO = `
const { WebSocketServer } = require('ws');
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
server.on('connection', (socket) => socket.on('message', (data) => socket.send(data)));
server.on('listening', () => console.log(server.address().port));
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Median round-trip time in microseconds for each payload size, over `rounds` round trips each. */
export async function loopbackRtt(sizes: readonly number[], rounds = 400): Promise<number[]> {
  const child = spawn(process.execPath, ['-e', ECHO], { cwd: path.resolve(__dirname, '../../..') });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once('exit', (code) => reject(new Error(`the echo server exited (${code})`)));
    });
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const results: number[] = [];
    for (const size of sizes) {
      const payload = 'x'.repeat(size);
      const times: number[] = [];
      for (let i = 0; i < rounds + 20; i++) {
        const start = process.hrtime.bigint();
        await new Promise<void>((resolve) => {
          socket.once('message', () => resolve());
          socket.send(payload);
        });
        if (i >= 20) times.push(Number(process.hrtime.bigint() - start) / 1000);
      }
      results.push(median(times));
    }
    socket.close();
    return results;
  } finally {
    child.kill();
  }
}
