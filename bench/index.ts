// `npm run bench`: every figure of the README's performance table, each as a ratio against a
// baseline measured in the same run. Each suite is a file in bench/suites/ that default-exports
// `{ title, run }`; `npm run bench -- name` runs only the suites whose file name contains `name`.
import { readdirSync } from 'node:fs';

export interface BenchSuite {
  title: string;
  /** May return headline figures (name → ratio line), printed together at the end of the run. */
  run(): Promise<void | Record<string, string>>;
}

const only = process.argv.slice(2);
const dir = new URL('./suites/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort()
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)));

const headlines: Record<string, string> = {};
for (const file of files) {
  const suite = (await import(new URL(file, dir).href)).default as BenchSuite;
  console.log(`\n## ${suite.title}`);
  Object.assign(headlines, await suite.run());
}
if (files.length === 0) console.log('no benchmarks matched');
if (Object.keys(headlines).length > 0) {
  console.log('\n## Headline figures (ratios against a baseline measured in this run)');
  for (const [name, line] of Object.entries(headlines)) console.log(`${name}: ${line}`);
}
