/*
 * A scenario: one rule of the two specifications, written once, with the spec's exact texts, run
 * through any path's driver (driver.ts). What a path cannot do is declared by the path's `supports`
 * and named here in `needs`; a difference a path keeps on purpose is written once in `differs`.
 */
import type { Capability, Conversation, ConversationOptions } from './driver.js';

/** Which specification a rule comes from. */
export type Specification = 'task-surface' | 'action-cards';

/** What a scenario's body is given besides the conversation. */
export interface ScenarioContext {
  /** The options the conversation was opened with (the locale under test among them). */
  options: ConversationOptions;
  /** A fresh id for a submission, dismissal or message (unique within the run). */
  id(prefix: string): string;
}

export interface Scenario {
  /** A stable id (`surface.double-submit`): the conformance table's row anchor. */
  id: string;
  /** The rule in a reader's words: the table's row. */
  requirement: string;
  spec: Specification;
  /** What the scenario needs of a path (a path without it reports the scenario not applicable, with its reason). */
  needs?: readonly Capability[];
  /** Options of the conversation besides the locale (limits, tool mode, kinds): made again for each conversation. */
  options?: () => Omit<ConversationOptions, 'locale'>;
  /**
   * Paths that differ from this rule on purpose, by path id, and why: there the scenario still runs,
   * reported as `todo` with the reason (its outcome shows, it fails nothing), and the table says so.
   */
  differs?: Readonly<Record<string, string>>;
  run(conversation: Conversation, context: ScenarioContext): Promise<void>;
}

/** A scenario's check failed: says what the rule expected and what the path did. */
export class ConformanceError extends Error {
  override name = 'ConformanceError';
}

const stable = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

/** Throws a `ConformanceError` unless `actual` equals `expected` (deeply, key order aside). */
export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (stable(actual) !== stable(expected)) {
    throw new ConformanceError(`${what}: expected ${stable(expected)}, got ${stable(actual)}`);
  }
}

/** Throws a `ConformanceError` unless `condition` holds. */
export function expectThat(condition: boolean, what: string): asserts condition {
  if (!condition) throw new ConformanceError(what);
}
