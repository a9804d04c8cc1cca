// The conformance kit on the Host in-process: the reference every other path is compared with.
import { after, before, describe, it } from 'node:test';
import { conformanceSuite, registerProductLocale } from '../../conformance/index.js';
import { hostDriver } from '../../conformance/drivers/host.js';

describe('conformance: the Host in-process', () => {
  let unregister = () => {};
  before(() => (unregister = registerProductLocale()));
  after(() => unregister());
  conformanceSuite({ test: it, driver: hostDriver });
});
