import OpenAI from 'openai';
import type { ResponsesClientEvent } from 'openai/resources/responses/responses';
import { ResponsesWS } from 'openai/resources/responses/ws';

type Response = OpenAI.Responses.Response;

/** The official SDK's WebSocket client, with one turn = one awaited `response.create`. */
export class SdkSocket {
  readonly ws: ResponsesWS;
  readonly events: { type: string; [key: string]: unknown }[] = [];
  readonly errors: Error[] = [];

  constructor(baseURL: string, apiKey = 'sk-local') {
    this.ws = new ResponsesWS(new OpenAI({ apiKey, baseURL, maxRetries: 0 }));
    this.ws.on('event', (event) => this.events.push(event as unknown as SdkSocket['events'][number]));
    this.ws.on('error', (error) => this.errors.push(error));
  }

  /** Sends a turn; resolves with its terminal response, or rejects with the error event it got instead. */
  turn(body: Omit<ResponsesClientEvent.ResponseCreate, 'type'>): Promise<Response> {
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        this.ws.off('response.completed', onDone);
        this.ws.off('response.incomplete', onDone);
        this.ws.off('response.failed', onDone);
        this.ws.off('error', onError);
      };
      const onDone = (event: { response: Response }) => {
        cleanup();
        resolve(event.response);
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      this.ws.on('response.completed', onDone);
      this.ws.on('response.incomplete', onDone);
      this.ws.on('response.failed', onDone);
      this.ws.on('error', onError);
      this.ws.send({ type: 'response.create', ...body });
    });
  }

  close(): void {
    this.ws.close();
  }
}
