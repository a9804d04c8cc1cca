// The docs site's one script: the header's language and theme controls, then the page named by
// `<body data-page>`: an element's live examples and API, the playground, or a document.
import { registerShippedCardBodies } from '../components/action-card/index.js';
import '../components/elements.js';
import { cardExamples } from './elements/card.js';
import { dockExamples } from './elements/dock.js';
import { markdownExamples } from './elements/markdown.js';
import { toolviewExamples } from './elements/toolview.js';
import { viewExamples } from './elements/view.js';
import { renderElementPage, type Example } from './examples.js';
import { renderHome } from './home.js';
import { renderMarkdownPage } from './markdownPage.js';
import { SITE_PAGES } from './pages.js';
import { renderPlayground } from './playground/playground.js';
import { mountControls } from './shell.js';

registerShippedCardBodies();

const EXAMPLES: Record<string, Example[]> = {
  'task-surface-view': viewExamples,
  'task-surface-dock': dockExamples,
  'task-surface-toolview': toolviewExamples,
  'task-surface-markdown': markdownExamples,
  'action-card': cardExamples,
};

const page = SITE_PAGES.find((p) => p.file === document.body.dataset.page) ?? SITE_PAGES[0]!;
const main = document.getElementById('main')!;
main.replaceChildren(); // the static title and "Loading" line: the page renders its own
mountControls();
switch (page.kind) {
  case 'home':
    renderHome(main);
    break;
  case 'element':
    void renderElementPage(main, page.subject!, EXAMPLES[page.subject!] ?? [], page.subject === 'task-surface-dock');
    break;
  case 'playground':
    renderPlayground(main);
    break;
  case 'markdown':
    void renderMarkdownPage(main, page.subject!, page.title);
    break;
}
