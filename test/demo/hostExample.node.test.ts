import assert from 'node:assert/strict';
import { it } from 'node:test';
import { hostDrivingExample } from '../../demo/examples/hostDriving.js';

it('the README host-driving example runs: queued → claiming → closed, and a discard reopens', async () => {
  assert.deepEqual(await hostDrivingExample(), ['queued', 'claiming', 'closed', 'open']);
});
