import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { en } from '../../components/i18n/en.js';
import { langOf, langTag, loadLocale, strings } from '../../components/i18n/index.js';
import { zh } from '../../components/i18n/zh.js';

/** Every string a table can produce (functions called with sample arguments). */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function') return texts((value as (...a: unknown[]) => unknown)('X', 2, 3));
  if (value && typeof value === 'object') return Object.values(value).flatMap(texts);
  return [];
}

describe('translation tables', () => {
  it('name the agent with one word per language', () => {
    assert.deepEqual(
      texts(en).filter((t) => /assistant/i.test(t)),
      [],
    );
    assert.deepEqual(
      texts(zh).filter((t) => /智能体|代理|助理/.test(t)),
      [],
    );
    assert.ok(texts(en).some((t) => /\bagent\b/.test(t)));
    assert.ok(texts(zh).some((t) => t.includes('助手')));
  });

  it('use full-width parentheses in Chinese', () => {
    assert.deepEqual(
      texts(zh).filter((t) => /[()]/.test(t)),
      [],
    );
    assert.equal(zh.required, '（必填）');
  });

  it('read any zh tag as Chinese and write zh-Hans, once the Chinese table has loaded', async () => {
    // Chinese is a chunk of its own, like every language but English: until it lands, English.
    assert.equal(langTag('zh-CN'), 'en');
    await loadLocale('zh-CN');
    for (const tag of ['zh', 'zh-Hans', 'zh-CN', 'ZH-hant']) assert.deepEqual(strings(tag), zh);
    for (const tag of ['en', 'fr', '', undefined, 'zhx']) assert.deepEqual(strings(tag), en);
    assert.equal(langTag('zh-CN'), 'zh-Hans');
    assert.equal(langOf('en-GB'), 'en');
  });
});
