import { expect, fixture, fixtureSync, html, waitUntil } from '@open-wc/testing';
import { render } from 'lit';
import { renderMarkdown, safeHttpUrl } from '../../components/markdown/markdown.js';
import '../../components/markdown/task-surface-markdown.js';

const ALLOWED = new Set([
  'div',
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'hr',
  'br',
  'strong',
  'em',
  's',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

const ATTACKS = [
  '<script>window.__pwned = 1</script>',
  '<img src="https://tracker.example/raw.png" onerror="window.__pwned = 2">',
  '<iframe src="https://tracker.example/frame"></iframe><video src="https://tracker.example/v.mp4"></video>',
  'inline <b onclick="window.__pwned=3">bold</b> <svg onload="window.__pwned=4"></svg>',
  '[js](javascript:window.__pwned=5) [JS](JAVASCRIPT:window.__pwned=6) [sp]( javascript:window.__pwned=7 )',
  '[ent](&#106;avascript:window.__pwned=8) [hex](jav&#x61;script:window.__pwned=9) [tab](java\tscript:alert(1))',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [vb](vbscript:msgbox) [file](file:///etc/passwd)',
  '[mail](mailto:a@example.com) [rel](/relative/path) [proto](//tracker.example/pr) [ftp](ftp://tracker.example/f)',
  '![pixel](https://tracker.example/pixel.png) ![data](data:image/png;base64,iVBORw0KGgo=)',
  '[![inner alt](https://tracker.example/in-link.png)](https://example.com/target)',
  '[ref one][r1]\n\n[r1]: javascript:window.__pwned=10',
  '[ref two][r2]\n\n[r2]: https://tracker.example/ref "title"',
  '<https://tracker.example/autolink> <javascript:window.__pwned=11> https://tracker.example/bare www.tracker.example',
  '<style>*{background:url(https://tracker.example/css.png)}</style><link rel="prefetch" href="https://tracker.example/pf">',
  '| a | b |\n|---|---|\n| ![t](https://tracker.example/t.png) | [x](javascript:1) |',
].join('\n\n');

function resourceNames(): string[] {
  return performance.getEntriesByType('resource').map((e) => e.name);
}

describe('markdown policy', () => {
  afterEach(() => {
    delete (window as { __pwned?: number }).__pwned;
  });

  it('keeps only absolute http(s) URLs', () => {
    expect(safeHttpUrl('https://example.com/a')).to.equal('https://example.com/a');
    expect(safeHttpUrl('http://example.com')).to.equal('http://example.com/');
    for (const bad of [
      'javascript:alert(1)',
      ' javascript:1',
      'data:text/html,x',
      '/rel',
      '//host/x',
      'mailto:x@y',
      'ftp://h/f',
      '',
      null,
    ]) {
      expect(safeHttpUrl(bad), String(bad)).to.equal(null);
    }
  });

  it('renders attack input with no script, no element outside the allowed set, and only http(s) links', async () => {
    const seen: string[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push(e.name);
    });
    observer.observe({ type: 'resource', buffered: false });
    const before = new Set(resourceNames());
    const el = await fixture(html`<task-surface-markdown remote-images="alt-only" .text=${ATTACKS}></task-surface-markdown>`);
    await new Promise((r) => setTimeout(r, 50)); // let any request start; the positive control below shows the probe sees them
    const root = el.shadowRoot!;
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
    const tags = [...root.querySelectorAll('*')].map((e) => e.localName).filter((t) => t !== 'style');
    expect(tags.filter((t) => !ALLOWED.has(t))).to.deep.equal([]);
    for (const a of root.querySelectorAll('a')) {
      expect(new URL(a.href).protocol).to.match(/^https?:$/);
      expect(a.target).to.equal('_blank');
      expect(a.rel).to.equal('noopener noreferrer');
    }
    expect([...root.querySelectorAll('a')].map((a) => a.href)).to.deep.equal([
      'https://example.com/target',
      'https://tracker.example/ref',
      'https://tracker.example/autolink',
    ]);
    // Raw HTML and refused links stay visible as text; images become their alt text.
    const text = root.textContent!;
    expect(text).to.contain('<script>window.__pwned = 1</script>');
    expect(text).to.contain('pixel');
    expect(root.querySelector('a[href="https://example.com/target"]')!.textContent).to.equal('inner alt');
    expect(text).to.contain('https://tracker.example/bare'); // no linkify
    // No request for any model-supplied URL.
    observer.disconnect();
    const fresh = [...resourceNames().filter((n) => !before.has(n)), ...seen];
    expect(fresh.filter((n) => n.includes('tracker.example') || n.includes('example.com'))).to.deep.equal([]);
  });

  it('requests nothing until a link is clicked, and clicking opens it in a new tab', async () => {
    const el = await fixture(
      html`<task-surface-markdown remote-images="alt-only" text="[go](https://example.com/go)"></task-surface-markdown>`,
    );
    const link = el.shadowRoot!.querySelector('a')!;
    const opened: string[] = [];
    link.addEventListener('click', (e) => {
      opened.push(link.href);
      e.preventDefault();
    });
    expect(opened).to.deep.equal([]);
    link.click();
    expect(opened).to.deep.equal(['https://example.com/go']);
  });

  it('shows only http(s) images in render mode; the network probe sees a real request', async () => {
    const probe = `${location.origin}/__markdown_probe.png?${Math.random()}`;
    const el = await fixture(
      html`<task-surface-markdown remote-images="render" .text=${`![probe](${probe}) ![bad](javascript:1)`}></task-surface-markdown>`,
    );
    const imgs = el.shadowRoot!.querySelectorAll('img');
    expect(imgs.length).to.equal(1);
    expect(imgs[0]!.alt).to.equal('probe');
    expect(imgs[0]!.getAttribute('src')).to.equal(probe);
    // Positive control for the probe used above: a request that does go out is seen.
    const control = `${location.origin}/__markdown_control.txt?${Math.random()}`;
    await fetch(control).catch(() => undefined);
    await waitUntil(() => resourceNames().includes(control), 'the positive control request was not observed');
  });

  it('by default renders images as their alt text and requests nothing', async () => {
    const probe = `${location.origin}/__markdown_default.png?${Math.random()}`;
    const before = new Set(resourceNames());
    const el = await fixture<HTMLElement & { updateComplete: Promise<unknown> }>(
      html`<task-surface-markdown .text=${`Look: ![the chart](${probe})`}></task-surface-markdown>`,
    );
    expect(el.shadowRoot!.querySelectorAll('img').length).to.equal(0);
    expect(el.shadowRoot!.textContent).to.contain('Look: the chart');
    for (const value of ['', 'RENDER', 'yes']) {
      el.setAttribute('remote-images', value);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelectorAll('img').length, `remote-images="${value}" is not the opt-in`).to.equal(0);
    }
    const host = document.createElement('div');
    render(renderMarkdown(`![x](${probe})`), host);
    expect(host.querySelectorAll('img').length, 'renderMarkdown defaults to alt-only too').to.equal(0);
    // The positive control (the render-mode test) shows a request for such a URL is observed.
    await new Promise((r) => setTimeout(r, 100));
    expect(resourceNames().filter((n) => !before.has(n) && n.includes('__markdown_default'))).to.deep.equal([]);
  });

  it('renders headings, lists, code, quotes and tables as their elements', () => {
    const host = document.createElement('div');
    render(renderMarkdown('# T\n\n> q\n\n1. a\n2. b\n\n```\ncode <b>\n```\n\n| h |\n|---|\n| c |', { headingOffset: 2 }), host);
    expect(host.querySelector('h3')!.textContent).to.equal('T');
    expect(host.querySelector('blockquote')).to.not.equal(null);
    expect(host.querySelectorAll('ol li').length).to.equal(2);
    expect(host.querySelector('pre code')!.textContent).to.equal('code <b>\n');
    expect(host.querySelector('th')!.textContent).to.equal('h');
  });

  it('never leaves a gap in the outline: a heading is at most one level below the one before', () => {
    const host = document.createElement('div');
    render(renderMarkdown('### Part\n\n# Top\n\n### Deep\n\n## Back', { headingOffset: 2 }), host);
    expect([...host.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => `${h.tagName} ${h.textContent}`)).to.deep.equal([
      'H3 Part',
      'H3 Top',
      'H4 Deep',
      'H4 Back',
    ]);
  });

  for (const theme of ['light', 'dark']) {
    it(`axe finds nothing in rendered markdown (${theme})`, async () => {
      // On a page of the same scheme, as a chat bubble would be.
      const page = fixtureSync(html`<div style=${theme === 'dark' ? 'background:#0d1117;color:#e6edf3' : 'background:#fff;color:#1f2328'}>
        <task-surface-markdown theme=${theme} remote-images="alt-only"
        .text=${'# Title\n\nText with a [link](https://example.com) and `code`.\n\n- a\n- b\n\n> quote\n\n| h |\n|---|\n| c |'}></task-surface-markdown></div>`);
      const el = page.querySelector('task-surface-markdown')!;
      await el.updateComplete;
      await expect(el).to.be.accessible();
    });
  }
});
