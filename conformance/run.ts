/*
 * Running the kit: every scenario on one driver, in every language. Like abstract-level's
 * `suite({ test, factory })`, the whole contract is one function a path's test file calls with its
 * test runner and its driver; what the path cannot do is read from its `supports`, never skipped in
 * an adapter's own test file.
 */
import type { ConformanceDriver } from './driver.js';
import { LOCALES } from './fixtures.js';
import { cardScenarios } from './scenarios/cards.js';
import { limitScenarios } from './scenarios/limits.js';
import { previewScenarios } from './scenarios/preview.js';
import { surfaceScenarios } from './scenarios/surface.js';
import type { Scenario } from './scenario.js';

/** Every scenario of the kit, in the order the conformance table lists them. */
export const SCENARIOS: readonly Scenario[] = [...surfaceScenarios, ...cardScenarios, ...limitScenarios, ...previewScenarios];

/** Why `driver` cannot run `scenario` (the first capability it lacks, in the path's words), or null. */
export function notApplicable(driver: ConformanceDriver, scenario: Scenario): string | null {
  for (const need of scenario.needs ?? []) {
    const support = need === 'waiting' ? (driver.supports.waiting ?? driver.supports.queue) : driver.supports[need];
    if (support !== true) return support ?? `the driver does not declare \`supports.${need}\``;
  }
  return null;
}

let unique = 0;

/** Runs one scenario on one driver in one language; throws the scenario's `ConformanceError` when the path breaks the rule. */
export async function runScenario(driver: ConformanceDriver, scenario: Scenario, locale: string): Promise<void> {
  const options = { locale, ...scenario.options?.() };
  const conversation = await driver.open(options);
  try {
    await scenario.run(conversation, { options, id: (prefix) => `${prefix}-${++unique}-${Date.now().toString(36)}` });
  } finally {
    await conversation.close();
  }
}

/**
 * A test runner's `it`/`test` (node:test's fits): a name, `{ skip }` or `{ todo }` with the reason,
 * the body.
 */
export type TestFunction = (name: string, options: { skip?: string; todo?: string }, body: () => Promise<void>) => unknown;

/**
 * Registers one test per scenario × language on `driver`. A scenario the path cannot do is
 * registered skipped, with the path's reason as the skip message; one the path differs from on
 * purpose (the scenario's `differs`) runs as `todo`, with the scenario's reason.
 */
export function conformanceSuite(options: {
  test: TestFunction;
  driver: ConformanceDriver;
  scenarios?: readonly Scenario[];
  locales?: readonly string[];
}): void {
  const { test, driver, scenarios = SCENARIOS, locales = LOCALES } = options;
  for (const scenario of scenarios) {
    const reason = notApplicable(driver, scenario);
    const differs = scenario.differs?.[driver.path];
    const options = reason !== null ? { skip: `not applicable: ${reason}` } : differs !== undefined ? { todo: `differs: ${differs}` } : {};
    for (const locale of locales) {
      test(`${driver.path} · ${scenario.id} · ${locale}`, options, () => runScenario(driver, scenario, locale));
    }
  }
}
