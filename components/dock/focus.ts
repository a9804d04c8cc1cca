/** The focused element, looking through open shadow roots. */
export function deepActiveElement(): HTMLElement | null {
  let el = document.activeElement as HTMLElement | null;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
  return el;
}

const TEXT_ENTRY = 'textarea, [contenteditable=""], [contenteditable="true"], input:not([type]), input[type="text"], input[type="search"]';

/**
 * The page's composer for a Dock: the element whose id the `composer` attribute names, looked up in
 * the Dock's own root (document or shadow root); without the attribute, the first enabled text entry
 * that follows the Dock in that root (the Dock sits above the composer).
 */
export function findComposer(dock: HTMLElement, id: string | null): HTMLElement | null {
  const root = dock.getRootNode() as Document | ShadowRoot;
  if (id) return root.getElementById?.(id) ?? null;
  for (const el of root.querySelectorAll<HTMLElement>(TEXT_ENTRY)) {
    if (dock.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING && !dock.contains(el) && !isInert(el)) return el;
  }
  return null;
}

/** True when `el` cannot take focus now (disabled, hidden or detached). */
export function isInert(el: HTMLElement): boolean {
  return !el.isConnected || (el as HTMLInputElement).disabled === true || el.closest('[hidden], [inert]') !== null;
}
