import * as assert from 'node:assert/strict';
import type { ScenarioFile } from '../../../../src/server';
import { ServerEvent } from '../../../../src/protocol';
import { parses } from '../../protocol/parses';
import type { WireEvent, WsClient } from './harness';

// Steering over a real socket (docs/protocol.md §13): scenarios slow enough to steer mid-response, and the
// waits a test needs between frames.

/** Tokens a second: slow enough that a steer sent at a response's first delta lands before its item ends. */
export const STEER_TPS = 200;

/** A model that steers (the GPT-6 family), and one that does not. */
export const STEERING_MODEL = 'gpt-6';
export const OTHER_MODEL = 'gpt-5.5';

function words(count: number, word: string): string {
  return Array.from({ length: count }, (_, index) => `${word}${index % 10}`).join(' ');
}

/**
 * `plan the trip`: two messages (the steer lands during the first, the response ends before the second);
 * `only hotels`: the steer's own scenario, one message; `check the weather`: a function call, then a
 * message (a steer during the call leaves the response waiting for its output).
 */
export function steerScenarios(): ScenarioFile {
  return {
    scenarios: [
      {
        name: 'plan',
        match: 'plan the trip',
        steps: [
          {
            output: [
              { type: 'message', text: `Route: ${words(20, 'road')}` },
              { type: 'message', text: `Sights: ${words(20, 'sight')}` },
            ],
          },
        ],
      },
      {
        name: 'hotels',
        match: 'only hotels',
        steps: [{ output: [{ type: 'message', text: 'Hotels only: Lisbon.' }] }],
      },
      {
        name: 'weather',
        match: 'check the weather',
        steps: [
          {
            output: [
              { type: 'function_call', name: 'get_weather', arguments: { city: `Lisbon ${words(20, 'near')}` } },
              { type: 'message', text: 'I will look.' },
            ],
          },
          { output: [{ type: 'message', text: 'Sunny.' }] },
        ],
      },
    ],
  };
}

/** The frames from `start` on whose `type` is `type`. */
export function ofType(client: WsClient, type: string, start = 0): WireEvent[] {
  return client.frames.slice(start).filter((frame): frame is WireEvent => frame.type === type);
}

/** Waits for the `count`-th frame of `type` from `start` on, and returns it. */
export async function nth(client: WsClient, type: string, count = 1, start = 0): Promise<WireEvent> {
  await client.until(() => ofType(client, type, start).length >= count);
  return ofType(client, type, start)[count - 1] as WireEvent;
}

/** Sends `response.create` on a steering model and waits for its first delta (text or arguments). */
export async function startStreaming(client: WsClient, body: Record<string, unknown>): Promise<string> {
  const start = client.frames.length;
  client.send({ type: 'response.create', model: STEERING_MODEL, store: false, ...body });
  await client.until((frames) => frames.slice(start).some((frame) => frame.type.endsWith('.delta')));
  const created = ofType(client, 'response.created', start)[0];
  return (created?.response as { id: string }).id;
}

/** Sends a steer. */
export function steer(client: WsClient, previousId: string, input: unknown): void {
  client.send({ type: 'response.steer', previous_response_id: previousId, input });
}

/** Every frame the server sent is a modelled server event that our schemas take, steering's included. */
export function assertAllParse(client: WsClient): void {
  for (const frame of client.frames) {
    assert.notEqual(frame.type, '(unparsable)');
    parses(ServerEvent, frame);
  }
}

/** The text of a response's messages. */
export function textOf(response: unknown): string {
  const output = (response as { output: { type: string; content?: { text?: string }[] }[] }).output;
  return output
    .filter((item) => item.type === 'message')
    .flatMap((item) => (item.content ?? []).map((part) => part.text ?? ''))
    .join('\n');
}
