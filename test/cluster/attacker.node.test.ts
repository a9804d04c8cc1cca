// One attacker through `npm start -- --workers 3` (issue 37): floods of connections, identities,
// `/mcp` sessions and bodies from one address, each limited per client address, another person served
// (the checks: test/cluster/attacker.ts).
import { after, before, describe } from 'node:test';
import { attackThroughBalancer } from './attacker.js';
import { freshSchema, startWorkersDemo, type WorkersDemo } from './helpers.js';

describe('npm start -- --workers 3 under one attacker', { timeout: 120_000 }, () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  let demo: WorkersDemo;

  before(async () => {
    db = await freshSchema('attacker');
    demo = await startWorkersDemo(db.schema);
  });
  after(async () => {
    await demo?.stop();
    await db?.drop();
  });

  attackThroughBalancer(() => demo);
});
