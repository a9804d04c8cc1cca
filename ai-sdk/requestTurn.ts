/*
 * One request of an app's chat route is one turn, and the AI SDK starts the tool calls of a step
 * side by side. The Host runs a turn's calls one at a time, in the order the model made them, and
 * refuses every call after show_task_surface concluded the turn. So that two calls in one response
 * behave as on the Host (a skill load counts for the propose_action after it; nothing runs after a
 * show), the package's tools of one request run through this sequence.
 */
import type { ToolSet } from 'ai';
import { TURN_CONCLUDED_TEXT } from '../host/turn.js';

/** A tool's output: the text the model reads, and whether the call succeeded. */
type Output = { ok: boolean; text: string };

/** The calls of one request, in order; none after the turn concluded. */
export interface RequestTurn {
  /** Runs `call` after every call made before it; refused without running once a show concluded the turn. */
  run<T extends Output>(call: () => T | Promise<T>): Promise<T | { ok: false; text: string }>;
  /** As `run`, for the app's own tools: after a show the call does not run and fails with the Host's text. */
  runOrFail<T>(call: () => T | Promise<T>): Promise<T>;
  /** A successful show_task_surface ends the turn: later calls of the request read the Host's text. */
  conclude(): void;
}

export function createRequestTurn(): RequestTurn {
  let last: Promise<unknown> = Promise.resolve();
  let concluded = false;
  return {
    run(call) {
      const next = last.then(() => (concluded ? { ok: false as const, text: TURN_CONCLUDED_TEXT } : call()));
      last = next.catch(() => undefined);
      return next;
    },
    runOrFail(call) {
      const next = last.then(() => {
        if (concluded) throw new Error(TURN_CONCLUDED_TEXT);
        return call();
      });
      last = next.catch(() => undefined);
      return next;
    },
    conclude() {
      concluded = true;
    },
  };
}

/**
 * The app's own tools in the request's turn: each runs after the calls the model made before it,
 * and none runs after a successful show (it fails with the Host's text, which the model reads).
 */
export function inRequestTurn<S extends ToolSet>(tools: S, turn: RequestTurn): S {
  const wrapped: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    const run = (input: unknown, options: never) => turn.runOrFail(() => execute!(input, options));
    wrapped[name] = (execute ? { ...tool, execute: run } : tool) as ToolSet[string];
  }
  return wrapped as S;
}
