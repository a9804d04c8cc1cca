/** One page of the docs site: its file in dist/docs/, its title, and what it shows. */
export interface SitePage {
  file: string;
  title: string;
  /** `element`: a tag's live examples and API; `markdown`: a document of docs/; `home`, `playground`. */
  kind: 'home' | 'element' | 'playground' | 'markdown';
  /** For `element` pages, the tag; for `markdown` pages, the document (its path under docs/). */
  subject?: string;
}

/** Every page, in the order the site's navigation lists them. */
export const SITE_PAGES: readonly SitePage[] = [
  { file: 'index.html', title: 'Overview', kind: 'home' },
  { file: 'task-surface-view.html', title: '<task-surface-view>', kind: 'element', subject: 'task-surface-view' },
  { file: 'task-surface-dock.html', title: '<task-surface-dock>', kind: 'element', subject: 'task-surface-dock' },
  { file: 'task-surface-toolview.html', title: '<task-surface-toolview>', kind: 'element', subject: 'task-surface-toolview' },
  { file: 'task-surface-markdown.html', title: '<task-surface-markdown>', kind: 'element', subject: 'task-surface-markdown' },
  { file: 'action-card.html', title: '<action-card>', kind: 'element', subject: 'action-card' },
  { file: 'playground.html', title: 'Playground', kind: 'playground' },
  { file: 'rules.html', title: 'Rules', kind: 'markdown', subject: 'rules.md' },
  { file: 'conformance.html', title: 'Conformance', kind: 'markdown', subject: 'conformance.md' },
  { file: 'spec-task-surface.html', title: 'Spec: Task Surface', kind: 'markdown', subject: 'spec/task-surface-proposal.md' },
  { file: 'spec-action-cards.html', title: 'Spec: action cards', kind: 'markdown', subject: 'spec/action-cards-readme.md' },
  { file: 'spec-mapping.html', title: 'Spec: mapping', kind: 'markdown', subject: 'spec/mapping.md' },
];
