// Loaded before mocha in every browser test page (web-test-runner.config.mjs). A failed assertion's
// `actual` and `expected` travel to the runner as data: a DOM node there (expect(el).to.equal(null))
// never arrives and the page sits until the runner's 120 s timeout. An after-each hook on the root
// suite turns such values into text, so the test fails at once with the element's markup.

/** A value the runner can carry: the node's markup, or the value itself when it clones. */
function readable(value) {
  if (typeof Node !== 'undefined' && value instanceof Node) return value instanceof Element ? value.outerHTML : String(value.textContent);
  try {
    structuredClone(value);
    return value;
  } catch {
    return String(value);
  }
}

let mocha;
Object.defineProperty(window, 'mocha', {
  configurable: true,
  get: () => mocha,
  set(value) {
    mocha = value;
    mocha.suite.afterEach(function readableFailure() {
      const error = this.currentTest?.err;
      if (!error) return;
      for (const key of ['actual', 'expected']) if (key in error) error[key] = readable(error[key]);
    });
  },
});
