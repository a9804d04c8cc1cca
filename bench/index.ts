// `npm run bench`: every figure of the README's performance table, each as a ratio against a
// baseline measured in the same run. Each suite lives in its own file and registers here.
const suites: Array<[string, () => Promise<void>]> = [];

for (const [name, run] of suites) {
  console.log(`\n## ${name}`);
  await run();
}
if (suites.length === 0) console.log('no benchmarks yet');
