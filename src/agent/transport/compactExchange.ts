import { t } from '@vscode/l10n';
import { type AnyInputItem, CompactedResponse, HttpErrorBody, decodeWire } from '../../protocol';
import { type ProxyRoute, fetchProxyFault, viaProxy } from './proxy';
import { RedirectRefused, fetchSameOrigin } from './redirectGuard';
import { AgentStop } from './transportFault';

// `POST /v1/responses/compact`: a context folded into its user messages and one `compaction` item, which the
// next request sends instead of what it stands for (docs/protocol.md §3.7). Asked for when a request was
// refused as `context_length_exceeded`; always over HTTP, whichever transport the turns use.

export interface CompactCall {
  /** Base URL, as the session's endpoint: `http://127.0.0.1:PORT/v1`. */
  endpoint: string;
  headers: Record<string, string>;
  model: string;
  input: readonly AnyInputItem[];
  promptCacheKey: string | undefined;
  signal: AbortSignal;
  /** The proxy to tunnel through (proxy.ts); absent: directly. */
  proxy?: ProxyRoute | undefined;
}

/** The compacted context (the user messages and the compaction item) and the pass's usage; AgentStop when refused. */
export async function compactContext(call: CompactCall): Promise<CompactedResponse> {
  const url = `${call.endpoint.replace(/\/+$/, '')}/responses/compact`;
  let response: Response;
  try {
    response = await fetchSameOrigin(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...call.headers },
      body: JSON.stringify({
        model: call.model,
        input: call.input,
        ...(call.promptCacheKey === undefined ? {} : { prompt_cache_key: call.promptCacheKey }),
      }),
      signal: call.signal,
      ...viaProxy(call.proxy),
    });
  } catch (error) {
    if (call.signal.aborted) throw error;
    if (error instanceof RedirectRefused)
      throw new AgentStop('redirected', t('The context could not be compacted: {0}', `${error.message}.`));
    const proxied = fetchProxyFault(error, call.proxy);
    if (proxied) throw new AgentStop('proxy', t('The context could not be compacted: {0}', `${proxied.message}.`));
    throw new AgentStop(
      'compaction_failed',
      t('The context could not be compacted: {0}', `${(error as Error).message}.`),
    );
  }
  const text = await response.text();
  if (!response.ok) {
    const body = decodeWire(HttpErrorBody, text);
    const why = body.ok
      ? `${body.value.error.message} (${body.value.error.code ?? response.status})`
      : text.slice(0, 300);
    throw new AgentStop(
      body.ok && body.value.error.code ? body.value.error.code : 'compaction_failed',
      t('The context could not be compacted: {0}', why),
    );
  }
  const compacted = decodeWire(CompactedResponse, text);
  if (!compacted.ok)
    throw new AgentStop(
      'compaction_failed',
      t("The compaction's answer is not one this version reads: {0}", compacted.error.message),
    );
  return compacted.value;
}
