import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lazyModule, lazyModulesArrived, lazyModulesPending, lazyModulesSettled } from '../../components/shared/lazy.js';

describe('lazy modules (chunks loaded on first use)', () => {
  it('loads once however often it is asked for, and counts the arrival', async () => {
    let calls = 0;
    const before = lazyModulesArrived();
    const module = lazyModule(async () => {
      calls++;
      return { name: 'parser' };
    });
    assert.equal(module.get(), undefined, 'not there yet: the caller shows its placeholder');
    assert.equal(module.get(), undefined);
    assert.equal(lazyModulesPending(), true);
    await lazyModulesSettled();
    assert.deepEqual(module.get(), { name: 'parser' });
    assert.deepEqual(await module.load(), { name: 'parser' });
    assert.equal(calls, 1);
    assert.equal(lazyModulesArrived(), before + 1);
    assert.equal(lazyModulesPending(), false);
  });

  it('a failed load keeps the placeholder: renders do not retry it, load() does', async () => {
    let calls = 0;
    const module = lazyModule(async () => {
      calls++;
      if (calls === 1) throw new Error('offline');
      return 42;
    });
    assert.equal(module.get(), undefined);
    await lazyModulesSettled();
    assert.equal(module.failed(), true);
    assert.equal(module.get(), undefined, 'a render after the failure asks nothing (no loop while offline)');
    assert.equal(lazyModulesPending(), false);
    assert.equal(calls, 1);
    assert.equal(await module.load(), 42, 'an explicit load tries again');
    assert.equal(module.failed(), false);
    assert.equal(module.get(), 42);
    assert.equal(calls, 2);
  });

  it("load() rejects with the loader's error for a caller that awaits it", async () => {
    const module = lazyModule(async () => {
      throw new Error('chunk missing');
    });
    await assert.rejects(module.load(), /chunk missing/);
    assert.equal(lazyModulesPending(), false);
  });
});
