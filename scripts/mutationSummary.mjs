// After `stryker run` (npm run mutate): the kill rate per folder from reports/mutation/mutation.json.
// Killed and timed-out mutants count as detected; survivors and mutants no test reaches do not;
// ignored ones (docs/mutation.md) count neither way. Exits 1 below the aim (90 %) with the survivors listed.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

const AIM = 90;
const report = JSON.parse(readFileSync('reports/mutation/mutation.json', 'utf8'));
const folders = new Map();
const missed = [];
for (const [file, { mutants }] of Object.entries(report.files)) {
  const folder = dirname(file);
  const row = folders.get(folder) ?? { detected: 0, missed: 0 };
  for (const mutant of mutants) {
    if (mutant.status === 'Killed' || mutant.status === 'Timeout') row.detected++;
    else if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
      row.missed++;
      missed.push(`${file}:${mutant.location.start.line} ${mutant.mutatorName} (${mutant.status}): ${mutant.replacement ?? ''}`);
    }
  }
  folders.set(folder, row);
}
const rate = ({ detected, missed }) => (detected + missed === 0 ? 100 : (100 * detected) / (detected + missed));
const total = { detected: 0, missed: 0 };
console.log('\nkill rate per folder (killed or timed out / all that ran)');
for (const [folder, row] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
  total.detected += row.detected;
  total.missed += row.missed;
  console.log(
    `${rate(row).toFixed(1).padStart(6)} %  ${String(row.detected).padStart(5)} / ${String(row.detected + row.missed).padEnd(5)} ${folder}`,
  );
}
console.log(
  `${rate(total).toFixed(1).padStart(6)} %  ${String(total.detected).padStart(5)} / ${String(total.detected + total.missed).padEnd(5)} all`,
);
if (process.argv.includes('--survivors') || rate(total) < AIM) console.log(`\nnot detected:\n${missed.join('\n')}`);
process.exit(rate(total) < AIM ? 1 : 0);
