// The conformance kit on the Host over WebSocket: the package's server and client between the person and the Host.
import { after, before, describe, it } from 'node:test';
import { conformanceSuite, registerProductLocale } from '../../conformance/index.js';
import { hostWebSocketDriver } from '../../conformance/drivers/hostWs.js';

describe('conformance: the Host over WebSocket', () => {
  let unregister = () => {};
  before(() => (unregister = registerProductLocale()));
  after(() => unregister());
  conformanceSuite({ test: it, driver: hostWebSocketDriver });
});
