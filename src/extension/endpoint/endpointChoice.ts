import { endpointOrigin } from '../../agent/activation';

// Whose endpoint a window uses. A cloned repository's `.vscode/settings.json` is a stranger's input: where it
// sets `loopwire.endpoint` or `loopwire.headers`, the user's prompts, code and key would go where it says. So
// the workspace's choice is only a proposal: it is used once the user has said yes to it (endpointConsent.ts),
// and until then the user's own settings decide. Pure, for the unit tests: the settings come in as
// `WorkspaceConfiguration.inspect` gives them.

/** What `inspect` reports of one setting (the scopes Loopwire reads; language scopes are not used). */
export interface Inspected {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface EndpointChoice {
  /** `embedded` or a base URL. */
  endpoint: string;
  headers: Record<string, string>;
}

/** A workspace's endpoint waiting for the user's yes. */
export interface WorkspaceProposal extends EndpointChoice {
  /** What the yes is remembered by: the origin, and the headers sent there (another header is another question). */
  consentKey: string;
}

export interface EndpointChoices {
  /** The user's own choice (user settings, else the defaults): what runs when the workspace's is declined. */
  user: EndpointChoice;
  /** The workspace's choice, where it differs from the user's and would send something elsewhere. */
  proposal?: WorkspaceProposal;
}

/** The endpoint setting's value, `embedded` when blank or not a string. */
const endpointOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : 'embedded');

/**
 * The user's choice and the workspace's proposal. An untrusted workspace proposes nothing (its settings are
 * not read at all, as VS Code's restricted configurations say); nor does one that only pins the embedded
 * backend, which sends nothing anywhere, or that says what the user's settings say already.
 */
export function endpointChoices(endpoint: Inspected, headers: Inspected, trusted: boolean): EndpointChoices {
  const readHeaders = headersOf;
  const user: EndpointChoice = {
    endpoint: endpointOf(endpoint.globalValue ?? endpoint.defaultValue),
    headers: readHeaders(headers.globalValue ?? headers.defaultValue ?? {}),
  };
  if (!trusted) return { user };
  const endpointHere = endpoint.workspaceFolderValue ?? endpoint.workspaceValue;
  const headersHere = headers.workspaceFolderValue ?? headers.workspaceValue;
  if (endpointHere === undefined && headersHere === undefined) return { user };
  const chosen: EndpointChoice = {
    endpoint: endpointHere === undefined ? user.endpoint : endpointOf(endpointHere),
    headers: headersHere === undefined ? user.headers : readHeaders(headersHere),
  };
  if (chosen.endpoint === 'embedded') return { user: { ...user, endpoint: 'embedded' } };
  if (chosen.endpoint === user.endpoint && sameHeaders(chosen.headers, user.headers)) return { user };
  const place = endpointOrigin(chosen.endpoint) ?? chosen.endpoint;
  const sorted = Object.entries(chosen.headers).sort(([a], [b]) => a.localeCompare(b));
  return { user, proposal: { ...chosen, consentKey: JSON.stringify([place, sorted]) } };
}

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** The `loopwire.headers` object's string values, names in lower case; anything else is left out. */
export function headersOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const headers: Record<string, string> = {};
  for (const [name, text] of Object.entries(value))
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && typeof text === 'string' && !/[\r\n]/.test(text))
      headers[name.toLowerCase()] = text;
  return headers;
}
