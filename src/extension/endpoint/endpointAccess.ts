import * as vscode from 'vscode';
import { type ProxySettings, endpointOrigin } from '../../agent/activation';
import { type EndpointChoice, type WorkspaceProposal, endpointChoices } from './endpointChoice';
import { type Credentials, EndpointKeys } from './endpointKeys';
import { proxySettings } from './proxySettings';

// Where the window's requests go and what they carry: the user's endpoint, or the workspace's once the user
// said yes to it (asked once per workspace and origin, the answer kept in the workspace's state), with the
// key stored for that origin alone. Nothing goes to a workspace's endpoint before the yes.

/** Workspace state: the answers given, by proposal (`WorkspaceProposal.consentKey`). */
const ANSWERS = 'loopwire.endpointConsent';

/** The endpoint a session is built on, and what its requests carry. */
export interface ResolvedEndpoint extends EndpointChoice, Credentials {
  /** VS Code's proxy settings for the endpoint (proxySettings.ts); the embedded backend has none. */
  proxy?: ProxySettings;
}

export class EndpointAccess {
  readonly keys: EndpointKeys;
  /** Proposals put aside for this window (the question dismissed): asked again in the next window. */
  private readonly dismissed = new Set<string>();
  /** One question at a time: two tasks starting together wait for the same answer. */
  private asking: Promise<boolean> | undefined;
  private warned = false;

  constructor(
    secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    private readonly log: (line: string) => void,
  ) {
    this.keys = new EndpointKeys(secrets, {
      legacyEndpoint: () => this.choices().user.endpoint,
      log,
    });
  }

  /** The endpoint used now, without asking: the workspace's where the user said yes to it, else theirs. */
  current(): EndpointChoice {
    const { user, proposal } = this.choices();
    return proposal && this.answer(proposal) === true ? proposal : user;
  }

  /**
   * The endpoint for the next session and its credentials. A workspace's endpoint not yet answered is asked
   * about first; with `ask: false` (starting ahead of a first prompt) undefined is returned instead, so a
   * panel that opens never raises a question by itself.
   */
  async resolve(ask: boolean): Promise<ResolvedEndpoint | undefined> {
    const { user, proposal } = this.choices();
    let chosen = user;
    if (proposal) {
      const answer = this.answer(proposal);
      if (answer === undefined && !ask) return undefined;
      if (answer ?? (await this.ask(proposal, user))) chosen = proposal;
    }
    if (chosen.endpoint === 'embedded') return chosen;
    this.warnOfSecrets(chosen.headers);
    const { apiKey, headers } = await this.keys.credentials(chosen.endpoint);
    // The key's own header wins over a like-named one of the settings.
    return {
      ...chosen,
      headers: { ...chosen.headers, ...headers },
      ...(apiKey === undefined ? {} : { apiKey }),
      proxy: proxySettings(),
    };
  }

  /** A secret in plain settings is said once a window: it works, but it belongs in Set API Key…. */
  private warnOfSecrets(headers: Record<string, string>): void {
    const secret = Object.keys(headers).filter((name) => /^(authorization|api-key)$|key|token|secret/.test(name));
    if (secret.length === 0 || this.warned) return;
    this.warned = true;
    this.log(
      `loopwire.headers holds ${secret.join(', ')}: settings are plain text and Settings Sync copies them. Keep a key with Loopwire: Set API Key…, for its endpoint only.`,
    );
  }

  private choices() {
    const config = vscode.workspace.getConfiguration('loopwire', vscode.workspace.workspaceFolders?.[0]);
    return endpointChoices(
      config.inspect('endpoint') ?? {},
      config.inspect('headers') ?? {},
      vscode.workspace.isTrusted,
    );
  }

  private answer(proposal: WorkspaceProposal): boolean | undefined {
    if (this.dismissed.has(proposal.consentKey)) return false;
    const answers = this.state.get<Record<string, unknown>>(ANSWERS, {});
    const answer = answers[proposal.consentKey];
    return typeof answer === 'boolean' ? answer : undefined;
  }

  private ask(proposal: WorkspaceProposal, user: EndpointChoice): Promise<boolean> {
    this.asking ??= this.question(proposal, user).finally(() => (this.asking = undefined));
    return this.asking;
  }

  private async question(proposal: WorkspaceProposal, user: EndpointChoice): Promise<boolean> {
    const headers = Object.keys(proposal.headers);
    const yours = user.endpoint === 'embedded' ? 'the built-in offline backend' : user.endpoint;
    const yoursShown = user.endpoint === 'embedded' ? vscode.l10n.t('the built-in offline backend') : user.endpoint;
    const origin = endpointOrigin(proposal.endpoint) ?? proposal.endpoint;
    const detail = [
      vscode.l10n.t("The setting comes from this workspace's settings (.vscode/settings.json), not from yours."),
      headers.length > 0
        ? vscode.l10n.t(
            "Loopwire would send your prompts and the workspace's code to {0}, with the API key you set for that address, if any, and the headers {1}.",
            origin,
            headers.join(', '),
          )
        : vscode.l10n.t(
            "Loopwire would send your prompts and the workspace's code to {0}, with the API key you set for that address, if any.",
            origin,
          ),
      vscode.l10n.t('Keep My Endpoint uses {0}. The answer is remembered for this workspace.', yoursShown),
    ].join('\n\n');
    const useIt = vscode.l10n.t('Use It');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t("This workspace sets Loopwire's endpoint to {0}. Use it?", proposal.endpoint),
      { modal: true, detail },
      useIt,
      vscode.l10n.t('Keep My Endpoint'),
    );
    if (choice === undefined) {
      this.dismissed.add(proposal.consentKey);
      this.log(`The workspace's endpoint ${proposal.endpoint} was not answered: ${yours} is used in this window.`);
      return false;
    }
    const yes = choice === useIt;
    const answers = this.state.get<Record<string, unknown>>(ANSWERS, {});
    await this.state.update(ANSWERS, { ...answers, [proposal.consentKey]: yes });
    this.log(
      `The workspace's endpoint ${proposal.endpoint}: ${yes ? 'used, as the user said' : `declined; ${yours} is used`}.`,
    );
    return yes;
  }
}
