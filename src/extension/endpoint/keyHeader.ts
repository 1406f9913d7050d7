// Which header carries an endpoint's API key, from the endpoint's origin alone, so that Set API Key… asks for
// the key and nothing else: OpenAI and the servers that copy its API take `Authorization: Bearer KEY`; Azure
// OpenAI and Azure AI Foundry hosts take the key as it is in `api-key` (they refuse it as a bearer token, which
// they read as an Entra ID token). A gateway of its own kind is named by the user (Set API Key…'s "Another
// header…"). Plain, no vscode: the activation bundle reads it and unit tests run it.

/** The header of OpenAI's way: the key goes as `Bearer KEY`. */
export const BEARER_HEADER = 'authorization';

/** Azure's header: the key as it is. */
export const AZURE_KEY_HEADER = 'api-key';

/**
 * Host suffixes of Azure OpenAI (`RESOURCE.openai.azure.com`, and the US Government and China clouds) and of
 * Azure AI Foundry (`RESOURCE.services.ai.azure.com`, `RESOURCE.cognitiveservices.azure.com`).
 */
const AZURE_KEY_HOSTS = [
  '.openai.azure.com',
  '.openai.azure.us',
  '.openai.azure.cn',
  '.services.ai.azure.com',
  '.cognitiveservices.azure.com',
  '.cognitiveservices.azure.us',
  '.cognitiveservices.azure.cn',
];

/** The header the key of `origin` (`scheme://host[:port]`, as endpointOrigin gives it) goes in. */
export function keyHeaderFor(origin: string): string {
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase();
  } catch {
    return BEARER_HEADER;
  }
  return AZURE_KEY_HOSTS.some((suffix) => host.endsWith(suffix)) ? AZURE_KEY_HEADER : BEARER_HEADER;
}

/**
 * The header a key newly typed for `origin` goes in: a header of the user's own naming stored with its key
 * before (a gateway's), else the origin's. A stored Bearer or api-key gives way to the origin's rule: before it,
 * Bearer was the choice Enter made, wrong for Azure, and setting the key again is how that is mended.
 */
export function headerForNewKey(origin: string, before: string | undefined): string {
  const named = before?.toLowerCase();
  return named === undefined || named === BEARER_HEADER || named === AZURE_KEY_HEADER ? keyHeaderFor(origin) : named;
}

/** A header as the key's input box names it: `Authorization: Bearer` for the bearer token, else its name. */
export function headerLabel(header: string): string {
  return header === BEARER_HEADER ? 'Authorization: Bearer' : header;
}

/** Whether `text` is a header name (an HTTP token). */
export function isHeaderName(text: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(text);
}
