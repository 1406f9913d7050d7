import * as assert from 'node:assert/strict';
import { AUTH, SCENARIOS, TOKEN } from './faultScenarios';
import { WsClient, adminUrl, finalResponse, post, useServer } from './harness';

// The admin endpoint of a fault suite's server: orders for the next responses' faults, what waits, and the
// check that a fault spoiled nothing for the next connections.

/** `openWs`: a new WebSocket client the suite closes after each test. */
export function faultAdmin(url: () => string, openWs: () => Promise<WsClient>) {
  const admin = (route: string, init: RequestInit = {}) =>
    fetch(adminUrl(url(), route), { ...init, headers: { ...AUTH, 'content-type': 'application/json' } });
  const order = async (body: Record<string, unknown>) => {
    const reply = await admin('faults', { method: 'POST', body: JSON.stringify(body) });
    assert.equal(reply.status, 200, await reply.text());
  };
  const pending = async () => ((await (await admin('faults')).json()) as { pending: unknown[] }).pending;
  /** After any fault, a fresh connection of either transport is served as if nothing happened. */
  const servesOthers = async () => {
    const client = await openWs();
    assert.equal(finalResponse(await client.turn({ model: 'm', store: false, input: 'plain' })).status, 'completed');
    const http = await post(`${url()}/responses`, { model: 'm', store: false, input: 'plain' }, AUTH);
    assert.equal(http.status, 200);
    assert.equal((JSON.parse(http.text) as { status: string }).status, 'completed');
  };
  return { admin, order, pending, servesOthers };
}

/** The fault suites' server (its token, the fault scenarios), WebSocket clients closed after each test, its admin. */
export function useFaultServer() {
  const harness = useServer({ token: TOKEN, scenarios: [SCENARIOS] });
  const clients: WsClient[] = [];
  afterEach(() => clients.splice(0).forEach((client) => client.close()));
  const openWs = async () => {
    const client = await WsClient.open(harness.url, AUTH);
    clients.push(client);
    return client;
  };
  return { harness, openWs, ...faultAdmin(() => harness.url, openWs) };
}
