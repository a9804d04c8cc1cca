import { expect } from '@open-wc/testing';
import { mintSessionId, SessionIdSchema } from '../../protocol/index.js';

describe('protocol in the browser', () => {
  it('mints ids with the page crypto and validates them', () => {
    const id = mintSessionId();
    expect(SessionIdSchema.safeParse(id).success).to.equal(true);
    expect(SessionIdSchema.safeParse('no spaces').success).to.equal(false);
  });
});
