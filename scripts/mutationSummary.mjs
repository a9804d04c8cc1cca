// After `stryker run` (npm run mutate): the kill rate per folder of the scope in stryker.config.mjs.
// Reads reports/mutation/*.json (the whole scope's mutation.json and one-folder runs' MUTATE_NAME
// reports; for a file in several, the newest report), or the reports named on the command line.
// Killed and timed-out mutants count as detected; survivors and mutants no test reaches do not;
// ignored ones (docs/mutation.md) count neither way. A partial picture is said, never hidden: a
// folder of the scope with no result reads "not run", a file changed since its run "stale", and
// mutants that errored are counted apart. Exits 1 below the aim (90 %) or when anything was not
// run or is stale, listing what no test detected.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import config from '../stryker.config.mjs';

const AIM = 90;
const DIR = 'reports/mutation';
const args = process.argv.slice(2);
const named = args.filter((a) => !a.startsWith('--'));
const reports = (
  named.length > 0
    ? named
    : existsSync(DIR)
      ? readdirSync(DIR)
          .filter((f) => f.endsWith('.json') && !f.endsWith('-incremental.json'))
          .map((f) => join(DIR, f))
      : []
).sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs); // newest last: it wins

/** The .ts files a `mutate` pattern names (`dir/**\/*.ts` or one file). */
function expand(pattern) {
  if (!pattern.includes('*')) return existsSync(pattern) ? [pattern] : [];
  const root = pattern.slice(0, pattern.indexOf('/**'));
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  return existsSync(root) ? walk(root) : [];
}
const scope = new Set(config.mutate.filter((p) => !p.startsWith('!')).flatMap(expand));

const files = new Map(); // file → { mutants, stale }
for (const path of reports) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const [file, result] of Object.entries(report.files)) {
    const name = relative(process.cwd(), join(report.projectRoot ?? process.cwd(), file)) || file;
    const stale = !existsSync(name) || readFileSync(name, 'utf8') !== result.source;
    files.set(name, { mutants: result.mutants, stale });
  }
}

const folders = new Map();
const row = (folder) => {
  if (!folders.has(folder)) folders.set(folder, { detected: 0, missed: 0, errors: 0, files: 0, run: 0, stale: 0 });
  return folders.get(folder);
};
for (const file of scope) row(dirname(file)).files++;
const missed = [];
for (const [file, { mutants, stale }] of files) {
  const r = row(dirname(file));
  if (!scope.has(file)) r.files++;
  r.run++;
  if (stale) r.stale++;
  for (const mutant of mutants) {
    if (mutant.status === 'Killed' || mutant.status === 'Timeout') r.detected++;
    else if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
      r.missed++;
      missed.push(`${file}:${mutant.location.start.line} ${mutant.mutatorName} (${mutant.status}): ${mutant.replacement ?? ''}`);
    } else if (mutant.status === 'RuntimeError' || mutant.status === 'CompileError') r.errors++;
  }
}

const rate = ({ detected, missed }) => (detected + missed === 0 ? NaN : (100 * detected) / (detected + missed));
const pct = (r) => (Number.isNaN(rate(r)) ? '     —' : `${rate(r).toFixed(1).padStart(6)} %`);
const total = { detected: 0, missed: 0, errors: 0, files: 0, run: 0, stale: 0 };
console.log(`\nkill rate per folder (killed or timed out / all that ran), from ${reports.length} report(s)`);
for (const [folder, r] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
  for (const k of Object.keys(total)) total[k] += r[k];
  const notes = [
    r.run === 0 ? 'not run' : r.run < r.files ? `partial: ${r.run} of ${r.files} files run` : '',
    r.stale ? `stale: ${r.stale} file(s) changed since the run` : '',
    r.errors ? `${r.errors} mutant(s) errored` : '',
  ].filter(Boolean);
  console.log(
    `${pct(r)}  ${String(r.detected).padStart(5)} / ${String(r.detected + r.missed).padEnd(5)} ${folder}${notes.length ? `  (${notes.join('; ')})` : ''}`,
  );
}
console.log(`${pct(total)}  ${String(total.detected).padStart(5)} / ${String(total.detected + total.missed).padEnd(5)} all that ran`);
const incomplete = total.run < total.files || total.stale > 0;
if (incomplete) {
  console.log(`\nincomplete: ${total.files - total.run} of ${total.files} files of the scope have no result; ${total.stale} stale`);
}
const below = !(rate(total) >= AIM);
if (args.includes('--survivors') || below) console.log(`\nnot detected:\n${missed.join('\n')}`);
process.exit(below || incomplete ? 1 : 0);
