import { t } from '@vscode/l10n';
import { type AnyInputItem, type CallItem, isCompaction } from '../protocol';
import { BUILTIN_TOOLS, type ToolRegistry } from '../tools';
import { appendProjectInstructions } from './instructions/projectInstructions';
import { environmentFollower } from './instructions/environmentContext';
import { modelProfile } from './model/modelCatalogue';
import { type PromptWithParts, textOf, userMessage } from './conversation/outputItems';
import { instructionsFollower } from './instructions/instructionsFollower';
import type { PromptStart } from './timing/promptStart';
import type { TurnOutcome, TurnRequest } from './transport/modelTransport';
import { SteerClient } from './transport/steerClient';
import { DEFAULT_MAX_TURNS, ProgressWatch } from './progressWatch';
import { ToolRunner, callsIn } from './toolRunner';
import { AgentStop, TurnCancelled } from './transport/transportFault';
import { type DoneEvent, type TaskEnd, endOfError } from './taskEnd';
import { type TurnTimes, turnMetrics } from './timing/turnMetrics';
import { TurnGap } from './timing/turnGap';
import { rehearse } from './turnRehearsal';
import { type CompactedNow, Compactor } from './conversation/compactor';
import { editLanded } from './editEnd';
import { appendNestedInstructions, showOutput } from './turnOutput';
import { beforePrompt, stopHook } from './hooks/loopHooks';

// The loop: the user's prompt, then turn after turn — the model answers over the model transport, the
// calls it asks for run through the tools, their outputs go into the next turn — until an answer with no
// call, the turn limit, a stop or a cancel. The transcript always holds the whole conversation.

import type { AgentOptions, RequestChoices } from './agentOptions';

export type { AgentOptions, RequestChoices } from './agentOptions';
export type { DoneEvent } from './taskEnd';
export type { PromptWithParts } from './conversation/outputItems';

export class Agent {
  private turns = 0;
  private toolCalls = 0;
  private readonly runner: ToolRunner;
  /** Adds an environment item to the transcript when where the agent works changed. */
  private readonly environmentChanged: () => void;
  /** Adds the instructions again when the tools offered changed (another model picked), saying they replace the first. */
  private readonly instructionsChanged: () => void;
  /** Steered text waiting for the next tool boundary. */
  private readonly steers: string[] = [];
  /** A task runs (between `run`'s start and its `done`): only then is a steer taken. */
  private running = false;
  /** Sends steers over the socket where the model takes them (`response.steer`), and follows their fate. */
  private readonly native: SteerClient;
  /** The compactions: the server's, on request past the threshold or an overflow, `/compact` (compactor.ts). */
  private readonly compactor: Compactor;
  /** The running prompt's start, until its first request is on the socket (promptStart.ts). */
  private promptStart: PromptStart | undefined;
  /** The turnaround since the last response, split (turnGap.ts); none before a task's first request. */
  private gap: TurnGap | undefined;

  constructor(private readonly options: AgentOptions) {
    // A call's output is kept within the budget of the model it answers now (a model picked mid-chat's).
    const outputTokens = () => modelProfile(this.current().model).toolOutputTokens;
    const { tools, approvals, transcript, emit, registry } = options;
    // A call runs with the tools of the request it answers: what the custom agent or prompt file narrows to.
    const inForce = () => this.current().registry ?? registry ?? BUILTIN_TOOLS;
    this.runner = new ToolRunner(tools, approvals, transcript, emit, inForce, outputTokens, options.hooks);
    this.environmentChanged = environmentFollower(options.environment, options.transcript);
    const instructionsNow = () => this.current().instructions;
    this.instructionsChanged = instructionsFollower(options.instructions, instructionsNow, options.transcript);
    this.native = new SteerClient((text) => this.steers.push(text), options.emit);
    this.compactor = new Compactor({
      options,
      current: () => this.current(),
      turnRequest: (items) => this.turnRequest(items),
      steersNatively: () => this.steersNatively(),
    });
  }

  /** The tools this agent's calls run with (what a front end asks how a call summarises and shows). */
  get registry(): ToolRegistry {
    return this.options.registry ?? BUILTIN_TOOLS;
  }

  /** Opens and warms up the session's connection. */
  start(): Promise<void> {
    const { instructions, lane, tools, environment } = this.options;
    const { model, toolSpecs, extra } = this.current();
    // What a task's first turnarounds would compile is compiled first, then the socket warms up (turnRehearsal.ts).
    const rehearsed = rehearse({ tools, registry: this.registry, environment, toolSpecs });
    const started = this.options.transport.start({
      model,
      instructions,
      tools: toolSpecs,
      promptCacheKey: this.options.transcript.header.id,
      emit: this.options.emit,
      ...(extra ? { extra } : {}),
      ...(lane === undefined ? {} : { lane }),
    });
    return Promise.all([started, rehearsed]).then(() => undefined);
  }

  /**
   * Runs a task: `prompt` (sent verbatim as its own user message, its attachments' parts after its text),
   * or, without one, continues the transcript as it stands (a resumed session). Never throws: the end is a
   * `done` event, also returned. `start` learns where the prompt's time goes until its request is sent.
   */
  async run(
    prompt: string | PromptWithParts | undefined,
    signal: AbortSignal = new AbortController().signal,
    start?: PromptStart,
  ): Promise<DoneEvent> {
    this.promptStart = start;
    const started = performance.now();
    this.running = true;
    const end = await this.turnsUntilEnd(prompt, signal).catch((error: unknown) =>
      endOfError(error, this.options.emit),
    );
    await this.options.helpers?.settle(end[0]); // Its subagents end before it does: waited for, or stopped with it.
    return this.finish(end, started);
  }

  /** The prompt into the transcript, then turn after turn until one ends the task or the turn limit does. */
  private async turnsUntilEnd(prompt: string | PromptWithParts | undefined, signal: AbortSignal): Promise<TaskEnd> {
    const maxTurns = this.options.maxTurns ?? DEFAULT_MAX_TURNS;
    const progress = new ProgressWatch();
    await this.settlePending(signal);
    if (prompt !== undefined) await this.appendPrompt(prompt);
    this.gap = undefined;
    const times: TurnTimes = { readyAt: performance.now(), previousEndAt: undefined };
    for (let turnOfTask = 1; ; turnOfTask++) {
      if (turnOfTask > maxTurns) return ['stopped', t('the turn limit ({0}) was reached', maxTurns), 'max_turns'];
      const end = await stopHook(this.options, await this.turn(times, signal, progress)); // A Stop hook may go on.
      if (end) return end;
    }
  }

  /** The task's `done`, emitted and returned; from now on no steer is taken (`steer` says false). */
  private finish([status, reason, code]: TaskEnd, started: number): DoneEvent {
    this.running = false;
    const done: DoneEvent = {
      type: 'done',
      status,
      reason,
      ...(code === undefined ? {} : { code }),
      turns: this.turns,
      toolCalls: this.toolCalls,
      wallMs: performance.now() - started,
    };
    this.options.emit(done);
    return done;
  }

  /**
   * Text the user sent to the running task (Steer). Where the model steers natively over a socket, it goes to
   * the running response as `response.steer` (steerClient.ts); otherwise, or when the socket gives it back,
   * it reaches the model at the next tool boundary, as a user message after the outputs of the calls in
   * flight, or — the model having answered — as the next turn's. False when no task runs to take it.
   */
  steer(text: string): boolean {
    if (!this.running) return false;
    if (!(this.steersNatively() && this.native.steer(text))) this.steers.push(text);
    return true;
  }

  /** What was steered and not yet delivered (the task ended first): the front end gives it back to the user. */
  takeSteers(): string[] {
    return [...this.steers.splice(0), ...this.native.abandon()];
  }

  /**
   * `/compact`: the conversation compacted now, between tasks; the next prompt goes on from the compaction.
   * Undefined when there is nothing to fold; refused while a task runs (its turns would race the fold).
   */
  compact(signal: AbortSignal = new AbortController().signal): Promise<CompactedNow | undefined> {
    if (this.running) throw new AgentStop('busy', t('The conversation can be compacted once the task has ended.'));
    return this.compactor.now(Math.max(1, this.turns), signal);
  }

  /** The catalogue says the model takes `response.steer`, and the session is on a socket to send it on. */
  private steersNatively(): boolean {
    return modelProfile(this.current().model).steering && this.options.transport.transport === 'ws';
  }

  /** The project's instructions and the skills where new or changed, then the prompt, into the transcript. */
  private async appendPrompt(prompt: string | PromptWithParts): Promise<void> {
    const { transcript } = this.options;
    await appendProjectInstructions(transcript, this.options.projectInstructions);
    const named = await beforePrompt(this.options, prompt); // The skills list, hooks; the named skills, context.
    this.promptStart?.mark('instructions');
    this.environmentChanged();
    this.instructionsChanged();
    transcript.append(userMessage(prompt), ...named);
    this.promptStart?.mark('environment');
  }

  /**
   * One turn: the request, its output kept and shown, its calls run, its figures; then what was steered
   * meanwhile. Resolves to how the task ends, or undefined for another turn.
   */
  private async turn(times: TurnTimes, signal: AbortSignal, progress: ProgressWatch): Promise<TaskEnd | undefined> {
    const { emit } = this.options;
    const turn = ++this.turns;
    this.gap?.mark('after');
    emit({ type: 'turn_started', turn });
    this.environmentChanged();
    this.instructionsChanged();
    this.gap?.mark('next');
    const outcome = await this.request(turn, signal);
    const gapPhasesMs = this.gap?.end(outcome.firstSentAt);
    const gap = (this.gap = new TurnGap(outcome.completedAt));
    gap.mark('response');
    this.keep(turn, outcome);
    gap.mark('keep');
    const compactedTokens = outcome.output.some(isCompaction) ? this.compactor.afterServer(turn, outcome) : undefined;
    const calls = callsIn(outcome.output);
    this.toolCalls += calls.length;
    const timing = await this.runner.runAll(turn, calls, signal);
    gap.mark('tools', timing.approvalMs);
    const metrics = turnMetrics(turn, outcome, timing, times, this.current().context, compactedTokens);
    emit({ type: 'turn_finished', metrics: { ...metrics, ...(gapPhasesMs ? { gapPhasesMs } : {}) } });
    times.readyAt = performance.now();
    times.previousEndAt = outcome.completedAt + timing.approvalMs;
    if (signal.aborted) throw new TurnCancelled();
    const nested = this.sendNestedInstructions(turn, calls);
    if (nested) await nested; // Most turns have none: no turn of the loop for it.
    const steered = this.deliverSteers(turn);
    const answered = outcome.output.some((item) => (textOf(item) ?? '') !== '');
    if (!progress.record(calls, timing.failed, answered || steered)) return progress.stop();
    if (this.options.endAfterEdit && !steered && editLanded(calls, timing.failed, this.registry))
      return ['completed', t('the edit was made'), 'edit_made'];
    if (steered || calls.length > 0) return undefined;
    // No call and no answer: the model said nothing. It is asked again, as a response that made no progress.
    if (!answered && outcome.response.status === 'completed') return undefined;
    if (outcome.response.status === 'incomplete') {
      const why = outcome.response.incomplete_details?.reason ?? 'no reason given';
      return ['stopped', t('the response was incomplete ({0})', why), 'incomplete'];
    }
    return ['completed', t('the model answered'), 'answered'];
  }

  /**
   * The turn's output into the transcript, and shown: first each response a native steer ended, with the
   * steers its successor took (where the server put them: after that output), then the last response's.
   */
  private keep(turn: number, outcome: TurnOutcome): void {
    const { transcript } = this.options;
    for (const segment of outcome.steered ?? []) {
      transcript.append(...segment.output, ...segment.steers);
      showOutput(this.options.emit, turn, segment.output);
    }
    this.compactor.lastOutputStart = transcript.items.length;
    transcript.append(...outcome.output);
    showOutput(this.options.emit, turn, outcome.output);
    const usage = outcome.response.usage;
    this.compactor.contextTokens = (usage?.input_tokens ?? 0) + (usage?.output_tokens ?? 0);
  }

  /** The AGENTS.md files below the workspace folder governing where this turn's calls worked, new to the chat. */
  private sendNestedInstructions(turn: number, calls: readonly CallItem[]): Promise<void> | undefined {
    const { transcript, tools, emit } = this.options;
    const { registry } = this;
    return appendNestedInstructions({ turn, calls, registry, transcript, workspace: tools.workspace, emit });
  }

  /** The steers waiting, as user messages after this turn's tool outputs; whether there were any. */
  private deliverSteers(turn: number): boolean {
    // Only the boundary's own: a native steer still open is the socket's to settle.
    const texts = this.steers.splice(0);
    for (const text of texts) {
      this.options.transcript.append(userMessage(text));
      this.options.emit({ type: 'steered', turn, text, how: 'boundary' });
    }
    return texts.length > 0;
  }

  /** The turn's request as it stands in the transcript. */
  private turnRequest(items: readonly AnyInputItem[]): TurnRequest {
    const { instructions, lane } = this.options;
    const { model, toolSpecs, extra, context } = this.current();
    const native = this.steersNatively();
    // The API does not steer a response under automatic compaction: on a model that steers, the agent
    // compacts by its own request past the threshold instead (request()).
    const threshold = native ? undefined : context?.compactThreshold;
    // Only the prompt's first request is its start's.
    const start = this.promptStart;
    this.promptStart = undefined;
    return {
      model,
      instructions,
      tools: toolSpecs,
      items,
      promptCacheKey: this.options.transcript.header.id,
      emit: this.options.emit,
      ...(extra ? { extra } : {}),
      ...(lane === undefined ? {} : { lane }),
      ...(threshold === undefined ? {} : { compactThreshold: threshold }),
      ...(native ? { steering: this.native } : {}),
      ...(start ? { start } : {}),
    };
  }

  /**
   * One turn's response. A context past the model's window (`context_length_exceeded`) is compacted on
   * request and sent once more (afterOverflow). On a model that steers natively, whose requests ask for no
   * compaction, the context is compacted on request as soon as the last response left it past the threshold.
   */
  private async request(turn: number, signal: AbortSignal): Promise<TurnOutcome> {
    const { transcript, transport } = this.options;
    if (this.compactor.pastThreshold()) await this.compactor.byRequest(turn, signal);
    try {
      return await transport.run(turn, this.turnRequest(transcript.items), signal);
    } catch (error) {
      if (!(error instanceof AgentStop) || error.code !== 'context_length_exceeded') throw error;
      return this.compactor.afterOverflow(turn, signal, error);
    }
  }

  /** What this request goes with: the front end's choices now, else those the agent was built with. */
  private current(): RequestChoices {
    return this.options.choices?.() ?? this.options;
  }

  /**
   * Calls a stopped session left without an answer: one that was started may have run, so it is answered
   * as interrupted, never run again; one that never started runs now.
   */
  private async settlePending(signal: AbortSignal): Promise<void> {
    const pending = this.options.transcript.pendingCalls();
    if (pending.length === 0) return;
    const interrupted = pending.filter((call) => call.started).map((call) => call.item as CallItem);
    for (const call of interrupted) this.options.transcript.append(this.runner.interrupted(call));
    const fresh = pending.filter((call) => !call.started).map((call) => call.item as CallItem);
    if (fresh.length > 0) await this.runner.runAll(Math.max(1, this.turns), fresh, signal);
  }
}
