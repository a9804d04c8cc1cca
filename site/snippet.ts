import { html, type TemplateResult } from 'lit';

/**
 * A code block with a Copy button (a real `<button>`: Enter and Space work). It writes to the
 * clipboard when the page may; otherwise it selects the code and says to press Ctrl+C. Either way a
 * status line says what happened.
 */
export function snippet(code: string, label: string): TemplateResult {
  const copy = async (event: Event) => {
    const box = (event.currentTarget as HTMLElement).closest('.snippet')!;
    const status = box.querySelector('.copy-status')!;
    try {
      await navigator.clipboard.writeText(code);
      status.textContent = 'Copied to the clipboard.';
    } catch {
      getSelection()?.selectAllChildren(box.querySelector('code')!);
      status.textContent = 'The clipboard is not available here: the code is selected, press Ctrl+C to copy it.';
    }
  };
  return html`<div class="snippet">
    <div class="snippet-bar">
      <span class="snippet-label">${label}</span>
      <span class="copy-status" role="status"></span>
      <button type="button" class="copy" aria-label=${`Copy: ${label}`} @click=${copy}>Copy</button>
    </div>
    <pre tabindex="0" aria-label=${label}><code>${code}</code></pre>
  </div>`;
}
