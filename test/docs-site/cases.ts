// The docs site's end-to-end cases, registered by the test/e2e/docs-*.e2e.ts files (several small
// files, each within the runner's per-file limit): every page's live examples render with no console
// error and no CSP violation, axe finds nothing in light and dark, the copy buttons work by keyboard,
// and the playground shows issues, the panel, the formatted message, and reproduces itself from its link.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { contentSecurityPolicy } from '../../demo/csp.js';
import { formatSubmission, parseTaskSurfaceModel, type TaskSurfaceValues } from '../../protocol/index.js';
import { SITE_PAGES } from '../../site/pages.js';
import { MAX_HASH_MODEL_CHARS } from '../../site/playground/hashState.js';
import { examplesReady, openDocs, setTheme, type DocsSite } from './harness.js';
import { axe } from '../e2e/demoPage.js';

/** What formatSubmission writes for `values` of `model` in `locale`: the message the playground must show. */
const formatted = (model: unknown, values: Record<string, unknown>, locale: string) => {
  const parsed = parseTaskSurfaceModel(model);
  assert.ok(parsed.ok);
  return formatSubmission(parsed.model, values as TaskSurfaceValues, undefined, { locale });
};
const ELEMENT_PAGES = SITE_PAGES.filter((p) => p.kind === 'element');

/** Text of a shadow part inside `host` (through nested shadow roots). */
const shadowText = (page: Page, host: string, selector: string) => page.locator(host).locator(selector).allTextContents();

/** Serving: /docs/ with the demo CSP. */
export function serveCase(site: () => DocsSite): void {
  it('serves /docs/ with the demo page CSP, redirects /docs, and keeps requests inside the site', async () => {
    const { server } = site();
    const index = await fetch(`${server.url}docs/`);
    assert.equal(index.status, 200);
    assert.equal(index.headers.get('content-security-policy'), contentSecurityPolicy(`127.0.0.1:${server.port}`));
    assert.match(await index.text(), /<nav aria-label="Docs">/);
    const bare = await fetch(`${server.url}docs`, { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/docs/');
    assert.equal((await fetch(`${server.url}docs/%2e%2e/%2e%2e/package.json`)).status, 404);
    assert.equal((await fetch(`${server.url}docs/nope.html`)).status, 404);
  });
}

/** Each element page in `subjects`: examples live, API, axe in light and dark. */
export function elementPageCases(
  site: () => DocsSite,
  subjects: readonly string[],
  themes: readonly ('Light' | 'Dark')[] = ['Light', 'Dark'],
): void {
  for (const entry of ELEMENT_PAGES.filter((p) => subjects.includes(p.subject!))) {
    it(`${entry.subject}: every example live, its API, no error or CSP violation, axe clean (${themes.join(', ')})`, async () => {
      const context = await site().context();
      const { page, problems } = await openDocs(site(), context, entry.file);
      await examplesReady(page);
      // The API tables come from custom-elements.json.
      const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as {
        modules: { declarations?: { tagName?: string; attributes?: { name: string }[] }[] }[];
      };
      const declared = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === entry.subject)!;
      for (const attribute of declared.attributes ?? []) {
        assert.equal(
          await page
            .locator('#api-attributes + .table-wrap th[scope="row"] > code', { hasText: new RegExp(`^${attribute.name}$`) })
            .count(),
          1,
          attribute.name,
        );
      }
      for (const title of ['Properties', 'Attributes', 'Events', 'Slots', 'CSS parts', 'CSS custom properties']) {
        assert.equal(await page.getByRole('heading', { level: 3, name: title, exact: true }).count(), 1, title);
      }
      // The Dock's page shows one live example at a time: each is checked open.
      const accordion = page.locator('details[name="live-example"] > summary');
      const views = Math.max(1, await accordion.count());
      const found: string[] = [];
      for (let i = 0; i < views; i++) {
        if (i > 0) await accordion.nth(i).click();
        for (const theme of themes) {
          await setTheme(page, theme);
          for (const v of await axe(page)) found.push(`${theme} ${i}: ${v}`);
        }
      }
      assert.deepEqual(found, []);
      assert.deepEqual(await problems(), []);
    });
  }
}

/** The Dock page reaches its states from the Host. */
export function dockStatesCase(site: () => DocsSite): void {
  it('the Dock page shows open, pending (queued, claiming) and refused from the Host', async () => {
    const { page, problems } = await openDocs(site(), await site().context(), 'task-surface-dock.html');
    await examplesReady(page);
    const dockIn = (id: string) => page.locator(`#${id} task-surface-dock`);
    assert.equal(await dockIn('open').getAttribute('state'), 'editing');
    assert.deepEqual(await dockIn('queued').locator('.status').allTextContents(), ['Sent. Waiting for the agent to pick it up.']);
    assert.deepEqual(await dockIn('claiming').locator('.status').allTextContents(), ['Sent. The agent is reading your answer.']);
    assert.equal(await dockIn('refused').getAttribute('state'), 'rejected');
    assert.match((await dockIn('refused').locator('.status').textContent()) ?? '', /usage limit/);
    // The open panel submits for real: the Dock hides once the Host made the answer a message.
    await dockIn('open').getByRole('button', { name: 'Use this database' }).click();
    await page.locator('#open task-surface-dock[state="hidden"]').waitFor({ state: 'attached' });
    assert.deepEqual(await problems(), []);
  });
}

/** The row and card pages reach their states from the Host. */
export function rowsAndCardsCase(site: () => DocsSite): void {
  it('the row page replays submitted, dismissed and bypassed panels; the card page shows pending, done and failed', async () => {
    const context = await site().context();
    const rows = await openDocs(site(), context, 'task-surface-toolview.html');
    await examplesReady(rows.page);
    const status = async (id: string) => (await shadowText(rows.page, `#${id} task-surface-toolview`, '.status')).join('');
    await rows.page.waitForFunction(() =>
      document
        .querySelector('#bypassed task-surface-toolview')
        ?.shadowRoot?.querySelector('.status')
        ?.textContent?.includes('Answered in chat'),
    );
    assert.match(await status('open'), /Open$/);
    assert.match(await status('submitted'), /Submitted$/);
    assert.match(await status('dismissed'), /Dismissed$/);
    assert.match(await status('bypassed'), /Answered in chat$/);
    assert.match(
      (await rows.page.locator('#fallback task-surface-toolview [part~="fallback"]').textContent()) ?? '',
      /Pick a rollout plan/,
    );
    assert.deepEqual(await rows.problems(), []);

    const cards = await openDocs(site(), context, 'action-card.html');
    await examplesReady(cards.page);
    const process = async (id: string) => (await cards.page.locator(`#${id} action-card [part~="process"]`).textContent())?.trim() ?? '';
    await cards.page.waitForFunction(
      () =>
        (document.querySelector('#failed action-card')?.shadowRoot?.querySelector('[part~="process"]')?.textContent ?? '').trim() !== '',
    );
    assert.equal(await process('pending'), '');
    assert.notEqual(await process('done'), '');
    assert.notEqual(await process('failed'), await process('done'));
    assert.deepEqual(await cards.problems(), []);
  });
}

/** Every shipped language. */
export function languagesCase(site: () => DocsSite, langs: readonly string[]): void {
  it(`the examples follow the language switch (${langs.join(', ')}), axe clean${langs.includes('ar') ? ' (Arabic right to left)' : ''}`, async () => {
    const { page, problems } = await openDocs(site(), await site().context(), 'task-surface-view.html');
    await examplesReady(page);
    const found: string[] = [];
    for (const lang of langs) {
      await page.locator('#controls select').selectOption(lang);
      await page.waitForFunction(
        (l) => [...document.querySelectorAll('task-surface-view')].every((v) => v.getAttribute('lang') === l),
        lang,
      );
      await setTheme(page, lang === 'ar' ? 'Dark' : 'Light');
      for (const v of await axe(page)) found.push(`${lang}: ${v}`);
    }
    assert.deepEqual(found, []);
    if (langs.at(-1) === 'ar') {
      // Right to left by position: the first option's radio mark sits at the right.
      const option = page.locator('#every-kind task-surface-view [role="radio"] .mark').first();
      const box = await option.boundingBox();
      const view = await page.locator('#every-kind task-surface-view').boundingBox();
      assert.ok(box && view && box.x + box.width / 2 > view.x + view.width / 2, 'in Arabic the options start at the right');
    }
    assert.deepEqual(await problems(), []);
  });
}

/** The theme: the system's until the reader picks one; picking a language picks no theme. */
export function systemThemeCase(site: () => DocsSite): void {
  it('takes the system’s light or dark until the reader picks a theme; a language change picks none', async () => {
    const { page, problems } = await openDocs(site(), await site().context(), 'index.html');
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const reload = async () => {
      await page.reload();
      await page.locator('#controls select').waitFor();
    };
    await page.locator('#controls select').waitFor();
    assert.equal(await theme(), 'light', 'the system is light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await reload();
    assert.equal(await theme(), 'dark', 'no theme picked: the system’s dark');
    await page.locator('#controls select').selectOption('de');
    await page.emulateMedia({ colorScheme: 'light' });
    await reload();
    assert.equal(await page.locator('#controls select').inputValue(), 'de', 'the language is kept');
    assert.equal(await theme(), 'light', 'a language change picked no theme');
    await page.emulateMedia({ colorScheme: 'dark' });
    await setTheme(page, 'Light');
    await reload();
    assert.equal(await theme(), 'light', 'a theme picked wins over the system’s');
    assert.deepEqual(await problems(), []);
  });
}

/** Copy by keyboard. */
export function copyCase(site: () => DocsSite): void {
  it('a Copy button works by keyboard: Tab to it, Enter, and the clipboard holds the snippet', async () => {
    const { page, problems } = await openDocs(site(), await site().context(), 'task-surface-markdown.html');
    await examplesReady(page);
    const button = page.locator('#model-text .copy');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.locator('#model-text .copy-status', { hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.locator('#model-text .snippet code').textContent());
    // The theme switch is reachable by keyboard too.
    await page.locator('#controls .switch button', { hasText: 'Dark' }).focus();
    await page.keyboard.press('Space');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.deepEqual(await problems(), []);
  });
}

/** The overview and the documents. */
export function documentCases(site: () => DocsSite, files: readonly string[]): void {
  for (const doc of SITE_PAGES.filter((p) => files.includes(p.file))) {
    it(`${doc.file}: renders${doc.subject ? ` docs/${doc.subject} verbatim with the markdown element` : ''}, axe clean in light and dark`, async () => {
      const { page, problems } = await openDocs(site(), await site().context(), doc.file);
      if (doc.subject) {
        await page.locator('article.doc[data-loaded="yes"] task-surface-markdown').waitFor();
        await page.waitForFunction(() => document.querySelector('task-surface-markdown')?.shadowRoot?.querySelector('.md p') !== null);
        const served = await (await fetch(`${site().server.url}docs/data/${doc.subject}`)).text();
        assert.equal(served, readFileSync(`docs/${doc.subject}`, 'utf8'), 'the document is served byte for byte');
      } else await page.getByRole('heading', { level: 1, name: 'task-surface' }).waitFor();
      const found: string[] = [];
      for (const theme of ['Light', 'Dark'] as const) {
        await setTheme(page, theme);
        for (const v of await axe(page)) found.push(`${theme}: ${v}`);
      }
      assert.deepEqual(found, []);
      assert.deepEqual(await problems(), []);
    });
  }
}

/** The playground. */
export function playgroundCases(site: () => DocsSite, part: 'flow' | 'link' | 'axe'): void {
  const json = (page: Page) => page.locator('#pg-json');
  const verdict = (page: Page, value: string) => page.locator(`.verdict[data-verdict="${value}"]`).waitFor();

  if (part === 'flow')
    it('shows the issues for a bad model with the paths the agent reads, the panel for a good one, the message after a submit', async () => {
      const { page, problems } = await openDocs(site(), await site().context(), 'playground.html');
      await verdict(page, 'valid');
      await page.locator('.pg-panel task-surface-dock[state="editing"]').waitFor({ state: 'attached' });
      // A bad model: the issues, and the tool result text exactly as the agent reads it.
      await page.locator('.pg-model select').selectOption('bad');
      await verdict(page, 'issues');
      const paths = await page.locator('.issues .path').allTextContents();
      assert.ok(paths.includes('model.title'), paths.join(', '));
      assert.ok(paths.includes('model.sections[0].blocks[0].kind'), paths.join(', '));
      const result = (await page.locator('.pg-issues .snippet code').textContent()) ?? '';
      assert.match(result, /^The task surface was not shown because its model is invalid:\n- model\.title: /);
      assert.equal(await page.locator('.pg-panel task-surface-dock').count(), 0);
      // Not JSON at all.
      await json(page).fill('{ "version": 1, ');
      await verdict(page, 'not-json');
      // A good model typed in: the panel; a submit: the user message and its source.
      const model = {
        version: 1,
        title: 'Ship it?',
        sections: [{ id: 's', blocks: [{ kind: 'markdown', text: 'Today?' }] }],
        fields: [{ kind: 'toggle', id: 'ship', label: 'Ship today', initial: true }],
        submit: { label: 'Decide' },
      };
      await json(page).fill(JSON.stringify(model));
      await verdict(page, 'valid');
      const dock = page.locator('.pg-panel task-surface-dock');
      await page.locator('.pg-panel task-surface-dock[state="editing"]').waitFor({ state: 'attached' });
      await dock.getByRole('button', { name: 'Decide' }).click();
      const message = page.locator('.pg-message .snippet code');
      await message.first().waitFor();
      assert.equal(await message.first().textContent(), formatted(model, { ship: true }, 'en'));
      const source = JSON.parse((await message.nth(1).textContent()) ?? '{}') as { taskSurface?: { values: unknown } };
      assert.deepEqual(source.taskSurface?.values, { ship: true });
      assert.deepEqual(await problems(), []);
    });

  if (part === 'link')
    it('a link reproduces the model and the language; a link past the bound is refused with a reason', async () => {
      const context = await site().context();
      const first = await openDocs(site(), context, 'playground.html');
      await verdict(first.page, 'valid');
      const model = JSON.stringify({
        version: 1,
        title: 'Pick',
        sections: [{ id: 's', blocks: [{ kind: 'notice', tone: 'info', text: 'Why?' }] }],
        fields: [{ kind: 'text', id: 'why', label: 'Why' }],
        submit: { label: 'Send' },
      });
      await json(first.page).fill(model);
      await first.page.locator('#controls select').selectOption('de');
      await first.page.waitForFunction(() => location.hash.includes('lang=de'));
      const link = first.page.url();
      assert.match(link, /#model=[\w-]+&lang=de$/);
      const second = await openDocs(site(), await site().context(), 'playground.html', link.slice(link.indexOf('#')));
      await verdict(second.page, 'valid');
      assert.equal(await json(second.page).inputValue(), model);
      await second.page.locator('.pg-panel task-surface-dock[lang="de"][state="editing"]').waitFor({ state: 'attached' });
      // Submitted in German: the message is written in the person's language.
      await second.page.locator('.pg-panel task-surface-dock').getByRole('textbox', { name: /Why/ }).fill('weil');
      await second.page.locator('.pg-panel task-surface-dock').getByRole('button', { name: 'Send' }).click();
      await second.page.locator('.pg-message .snippet code').first().waitFor();
      assert.equal(
        await second.page.locator('.pg-message .snippet code').first().textContent(),
        formatted(JSON.parse(model), { why: 'weil' }, 'de'),
      );
      // A bad link in the same tab: refused, said so, and an example shown instead.
      await second.page.evaluate((n) => (location.hash = `#model=${'A'.repeat(n)}`), MAX_HASH_MODEL_CHARS + 1);
      await second.page.locator('.link-note', { hasText: 'The link was not read' }).waitFor();
      for (const p of [first, second]) assert.deepEqual(await p.problems(), []);
    });

  if (part === 'axe')
    it('is axe clean in light and dark, with issues and with a panel', async () => {
      const { page, problems } = await openDocs(site(), await site().context(), 'playground.html');
      await verdict(page, 'valid');
      await page.locator('.pg-panel task-surface-dock[state="editing"]').waitFor({ state: 'attached' });
      const found: string[] = [];
      for (const theme of ['Light', 'Dark'] as const) {
        await setTheme(page, theme);
        for (const v of await axe(page)) found.push(`${theme} panel: ${v}`);
      }
      await page.locator('.pg-model select').selectOption('bad');
      await verdict(page, 'issues');
      for (const v of await axe(page)) found.push(`dark issues: ${v}`);
      assert.deepEqual(found, []);
      assert.deepEqual(await problems(), []);
    });
}
