/*
 * The scripted model every driver shares: responses queue up (one per model request), and what the
 * model read back (call results, requests) is recorded in the kit's shapes.
 */
import type { CallRead, ModelStep, SeenRequest } from '../driver.js';

/** The response the model gives when nothing is scripted: one step of text. */
export const DEFAULT_RESPONSE: readonly ModelStep[] = [{ text: 'ok' }];

/** A queue of scripted responses and the record of what the model read. */
export class ModelScript {
  private readonly responses: ModelStep[][] = [];
  readonly calls: CallRead[] = [];
  readonly requests: SeenRequest[] = [];

  push(steps: readonly ModelStep[]): void {
    this.responses.push([...steps]);
  }

  /** The next response's steps (the default one when the script has run out). */
  next(): ModelStep[] {
    return this.responses.shift() ?? [...DEFAULT_RESPONSE];
  }
}
