/*
 * The conformance table (docs/conformance.md, the docs site's Conformance page), generated from the
 * kit: one row per scenario, one column per path. A cell holds when the scenario runs on the path
 * in every language (the path's conformance test fails otherwise); a path that cannot do it says why
 * (its `supports`), and a path that differs on purpose says why (the scenario's `differs`).
 */
import type { ConformanceDriver } from './driver.js';
import { LOCALES, PRODUCT_LOCALE } from './fixtures.js';
import { notApplicable } from './run.js';
import type { Scenario } from './scenario.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The table as Markdown: the paths, the matrix, and each reason once, as a numbered note. */
export function conformanceTable(scenarios: readonly Scenario[], drivers: readonly ConformanceDriver[]): string {
  const notes: string[] = [];
  const note = (text: string) => {
    const at = notes.indexOf(text);
    return at >= 0 ? at + 1 : notes.push(text);
  };
  const rows = scenarios.map((scenario) => {
    const cells = drivers.map((driver) => {
      const reason = notApplicable(driver, scenario);
      if (reason !== null) return `not applicable [${note(`${driver.path}: ${reason}`)}]`;
      const differs = scenario.differs?.[driver.path];
      return differs === undefined ? 'holds' : `differs [${note(`${driver.path}: ${differs}`)}]`;
    });
    return `| \`${scenario.id}\` | ${cell(scenario.requirement)} | ${scenario.spec} | ${cells.join(' | ')} |`;
  });
  const counts = drivers.map((driver) => {
    const applicable = scenarios.filter((s) => notApplicable(driver, s) === null);
    const differ = applicable.filter((s) => s.differs?.[driver.path] !== undefined).length;
    const holds = applicable.length - differ;
    return `- **${driver.path}**: ${driver.description} ${holds} of ${scenarios.length} scenarios hold ${driver.coverage ?? 'in every language'}; ${differ} differ on purpose; ${scenarios.length - applicable.length} not applicable.`;
  });
  return [
    `| scenario | requirement | spec | ${drivers.map((d) => d.path).join(' | ')} |`,
    `|---|---|---|${drivers.map(() => '---').join('|')}|`,
    ...rows,
    '',
    ...notes.map((text, i) => `${i + 1}. ${cell(text)}`),
    '',
    '**Paths**',
    '',
    ...counts,
    '',
    `Every scenario runs in ${LOCALES.map((l) => `\`${l}\``).join(', ')} (\`${PRODUCT_LOCALE}\` registered by the product itself): ` +
      `${scenarios.length} scenarios × ${LOCALES.length} languages on each path.`,
  ].join('\n');
}
