// The conformance kit on the AG-UI path: the adapter's routes over a Host, @ag-ui/client's HttpAgent on the page side.
import { after, before, describe, it } from 'node:test';
import { conformanceSuite, registerProductLocale } from '../../conformance/index.js';
import { agUiDriver } from '../../conformance/drivers/agUi.js';

describe('conformance: an AG-UI app', () => {
  let unregister = () => {};
  before(() => (unregister = registerProductLocale()));
  after(() => unregister());
  conformanceSuite({ test: it, driver: agUiDriver });
});
