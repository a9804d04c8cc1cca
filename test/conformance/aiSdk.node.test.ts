// The conformance kit on the AI SDK path: the docs' route as written, the AI SDK's Chat on the page side.
import { after, before, describe, it } from 'node:test';
import { conformanceSuite, registerProductLocale } from '../../conformance/index.js';
import { aiSdkDriver } from '../../conformance/drivers/aiSdk.js';
import { docsRoutes } from './docsRoute.js';

describe('conformance: an AI SDK app', () => {
  let unregister = () => {};
  before(() => (unregister = registerProductLocale()));
  after(() => unregister());
  conformanceSuite({ test: it, driver: aiSdkDriver(docsRoutes) });
});
