import { html, nothing } from 'lit';
import * as z from 'zod/mini';
import { displayText } from '../../view/text.js';
import { localized, type CardBody, type Localized } from '../bodies.js';

/** The browser's own schema for create_page `details` (the Host checks its own; they change together). */
export const CreatePageBodySchema = z.object({
  pageTitle: z.string().check(z.minLength(1), z.maxLength(120)),
  sections: z.array(z.string()).check(z.minLength(1), z.maxLength(12)),
});

/** Only web addresses become links; anything else stays text. */
function safeHref(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const { protocol } = new URL(url, document.baseURI);
    return protocol === 'http:' || protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const SECTIONS: Localized = {
  en: 'Page sections',
  zh: '页面章节',
  es: 'Secciones de la página',
  de: 'Abschnitte der Seite',
  ja: 'ページの章',
  ar: 'أقسام الصفحة',
};
const OPEN: Localized = {
  en: 'Open the page',
  zh: '打开页面',
  es: 'Abrir la página',
  de: 'Seite öffnen',
  ja: 'ページを開く',
  ar: 'فتح الصفحة',
};

/** Browser body of `create_page`: the page title, its sections, and a link once created. */
export const createPageBody: CardBody<z.infer<typeof CreatePageBodySchema>> = {
  action: 'create_page',
  details: CreatePageBodySchema,
  verbs: [
    {
      verb: 'create',
      label: { en: 'Create page', zh: '创建页面', es: 'Crear la página', de: 'Seite erstellen', ja: 'ページを作成', ar: 'إنشاء الصفحة' },
      phases: ['proposed', 'failed', 'deleted'],
      primary: true,
    },
  ],
  dismissibleIn: ['failed'],
  phases: {
    creating: {
      en: 'Creating the page…',
      zh: '正在创建页面…',
      es: 'Creando la página…',
      de: 'Seite wird erstellt…',
      ja: 'ページを作成しています…',
      ar: 'جارٍ إنشاء الصفحة…',
    },
    created: {
      en: 'Page created',
      zh: '页面已创建',
      es: 'Página creada',
      de: 'Seite erstellt',
      ja: 'ページを作成しました',
      ar: 'أُنشئت الصفحة',
    },
    failed: {
      en: 'The page could not be created',
      zh: '页面创建失败',
      es: 'No se pudo crear la página',
      de: 'Die Seite konnte nicht erstellt werden',
      ja: 'ページを作成できませんでした',
      ar: 'تعذّر إنشاء الصفحة',
    },
    deleted: {
      en: 'The page was deleted',
      zh: '页面已被删除',
      es: 'La página se eliminó',
      de: 'Die Seite wurde gelöscht',
      ja: 'ページは削除されました',
      ar: 'حُذفت الصفحة',
    },
  },
  reasons: {
    'page-limit': {
      en: 'You have reached the page limit. Delete a page and try again.',
      zh: '页面数量已达上限。请删除一个页面后重试。',
      es: 'Has alcanzado el límite de páginas. Elimina una página y vuelve a intentarlo.',
      de: 'Sie haben die maximale Anzahl an Seiten erreicht. Löschen Sie eine Seite und versuchen Sie es erneut.',
      ja: 'ページ数が上限に達しました。ページを 1 つ削除してから、もう一度お試しください。',
      ar: 'بلغت الحد الأقصى لعدد الصفحات. احذف صفحة وحاول مرة أخرى.',
    },
  },
  render(details, { lang, phase, data }) {
    const href = phase === 'created' ? safeHref(data['url']) : undefined;
    return html`
      <p dir="auto"><strong>${displayText(details.pageTitle)}</strong></p>
      <ul aria-label=${localized(SECTIONS, lang)}>${details.sections.map((s) => html`<li dir="auto">${displayText(s)}</li>`)}</ul>
      ${href === undefined ? nothing : html`<p><a href=${href} target="_blank" rel="noopener noreferrer">${localized(OPEN, lang)}</a></p>`}`;
  },
};
