// Which environment variables a command must not inherit. A confined command's environment is readable by
// everything it runs (`env`, /proc/self/environ), so a key in it is a key handed to whatever the repository
// makes it run. The names are matched case-insensitively, as Windows and some tools spell them in lower case.

/** Loopwire's own keys: never given to any command, in any policy. */
const LOOPWIRE_KEYS: readonly RegExp[] = [
  /^OPENAI_API_KEY$/i,
  /^AZURE_OPENAI_API_KEY$/i,
  /^LOOPWIRE_.*(KEY|TOKEN|SECRET)/i,
];

/** What looks like a secret: keys, tokens, passwords, credentials, and the sockets of agents that hold keys. */
const SECRET_NAMES: readonly RegExp[] = [
  ...LOOPWIRE_KEYS,
  /(^|_)API_?KEY$/i,
  /_KEY$/i,
  /(^|_)TOKEN(_|$)/i,
  /AUTH_?TOKEN/i,
  /(^|_)AUTH$/i,
  /SECRET/i,
  /PASSWORD|PASSWD|PASSPHRASE/i,
  /(^|_)CREDENTIALS?$/i,
  /^AWS_SECRET_ACCESS_KEY$/i,
  /^AWS_SESSION_TOKEN$/i,
  // An agent socket is a credential: whoever reaches it signs as the user.
  /^SSH_AUTH_SOCK$/i,
  /^GPG_AGENT_INFO$/i,
  // So is a way back into the editor: VS Code's CLI socket installs extensions, its askpass hands out the
  // user's git credentials. (The sockets themselves are hidden too; these only point at them.)
  /^VSCODE_IPC_HOOK/i,
  /^VSCODE_GIT_(IPC|ASKPASS)/i,
  /^(GIT|SSH)_ASKPASS$/i,
];

function without(env: NodeJS.ProcessEnv, names: readonly RegExp[]): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !names.some((pattern) => pattern.test(name))) kept[name] = value;
  }
  return kept;
}

/** Whether a variable of this name holds a secret (a key, token, password, credential or agent socket). */
export function isSecretName(name: string): boolean {
  return SECRET_NAMES.some((pattern) => pattern.test(name));
}

/** `env` without the key and other secrets (names like *_API_KEY, *_TOKEN, *SECRET*, *PASSWORD*, SSH_AUTH_SOCK…). */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return without(env, SECRET_NAMES);
}

/**
 * `env` without Loopwire's own keys only: what a danger-full-access command gets. It can read every file of
 * the user's anyway, so taking the user's other tokens away would only break the tools the user chose to
 * let it run unconfined (`gh` with GH_TOKEN); Loopwire's key is never the command's business.
 */
export function withoutLoopwireKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return without(env, LOOPWIRE_KEYS);
}
