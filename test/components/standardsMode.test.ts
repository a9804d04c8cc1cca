import { expect } from '@open-wc/testing';

// The elements are tested as a page with a doctype shows them: in quirks mode tables would not
// inherit colour or font, and the dark theme's tables would read black on dark.
describe('the browser test page', () => {
  it('renders in standards mode', () => {
    expect(document.compatMode).to.equal('CSS1Compat');
  });
});
