// Elements a browser test puts on the page itself (not through `fixture`, which cleans up after
// itself) are taken off after each test, whether it passed or not: a failed test must not leave
// buttons or wrappers behind to take focus or answer queries in the tests after it.

const mounted: Node[] = [];

/** `node`, appended to the page's body until the end of the running test. */
export function onPage<T extends Node>(node: T): T {
  mounted.push(node);
  return document.body.appendChild(node);
}

// A root hook: importing this module registers it once for the test file's page.
afterEach(() => {
  for (const node of mounted.splice(0).reverse()) node.parentNode?.removeChild(node);
});
