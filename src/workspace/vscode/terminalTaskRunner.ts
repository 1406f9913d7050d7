import * as vscode from 'vscode';
import type { TaskRun } from '../workspace';
import type { TaskSpec } from '../shared/taskDiscovery';
import { runTaskProcess } from '../shared/taskProcess';

// Runs a workspace task the agent asked for as a real VS Code task, so the user sees it in the terminal
// panel, while Loopwire captures what it prints and its exit code (the tasks API reports neither output nor,
// for every execution kind, the code). The task runs in a CustomExecution pseudoterminal that streams the
// process; it never takes focus.

/** Terminals show CRLF line ends; a process prints LF. */
const forTerminal = (text: string) => text.replace(/\r?\n/g, '\r\n');

export function terminalTaskRunner(scope: vscode.WorkspaceFolder | vscode.TaskScope) {
  return (spec: TaskSpec, timeoutMs: number): Promise<TaskRun> =>
    new Promise<TaskRun>((resolve, reject) => {
      const write = new vscode.EventEmitter<string>();
      const close = new vscode.EventEmitter<number>();
      let started = false;
      const pty: vscode.Pseudoterminal = {
        onDidWrite: write.event,
        onDidClose: close.event,
        open: () => {
          started = true;
          write.fire(`\u001b[2m> ${spec.detail}\u001b[0m\r\n`);
          const decoder = new TextDecoder();
          void runTaskProcess(spec, timeoutMs, (chunk) =>
            write.fire(forTerminal(decoder.decode(chunk, { stream: true }))),
          ).then((run) => {
            const note = run.timedOut
              ? `stopped after ${Math.round(timeoutMs / 1000)} s`
              : `exit code ${run.exitCode ?? '?'}`;
            write.fire(`\r\n\u001b[2m(${note})\u001b[0m\r\n`);
            close.fire(run.exitCode ?? 1);
            resolve(run);
          });
        },
        close: () => undefined,
      };
      const task = new vscode.Task(
        { type: 'loopwire', label: spec.label },
        scope,
        spec.label,
        'Loopwire',
        new vscode.CustomExecution(() => Promise.resolve(pty)),
      );
      task.presentationOptions = {
        reveal: vscode.TaskRevealKind.Silent,
        focus: false,
        echo: false,
        panel: vscode.TaskPanelKind.Dedicated,
        clear: true,
      };
      vscode.tasks.executeTask(task).then(
        () => {
          // A task VS Code never opens (the terminal could not be created) would otherwise hang the call.
          setTimeout(() => {
            if (!started) reject(new Error(`VS Code did not start the task '${spec.label}'.`));
          }, 10_000);
        },
        (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
      );
    });
}
