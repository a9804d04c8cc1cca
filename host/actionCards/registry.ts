import type { CardKind } from '../types.js';

/*
 * The kind registry. Registration is by action; a kind's skill names the skill the model loads
 * before proposing it. Actions ever registered stay known to `record()`, because an unloading kind
 * still records the outcome of work it started.
 */
export class KindRegistry {
  readonly #kinds = new Map<string, CardKind>();
  /** The last definition of every action ever registered (for notice guidance after unregistering). */
  readonly #ever = new Map<string, CardKind>();

  /** Registers a kind; returns its disposer. A second live kind for one action or skill is a programming error. */
  register(kind: CardKind): () => void {
    validateKind(kind);
    if (this.#kinds.has(kind.action)) throw new Error(`action-cards: action "${kind.action}" is already registered`);
    for (const other of this.#kinds.values()) {
      if (other.skill.name === kind.skill.name) {
        throw new Error(`action-cards: skill "${kind.skill.name}" already belongs to action "${other.action}"`);
      }
    }
    this.#kinds.set(kind.action, kind);
    this.#ever.set(kind.action, kind);
    return () => {
      if (this.#kinds.get(kind.action) === kind) this.#kinds.delete(kind.action);
    };
  }

  get(action: string): CardKind | undefined {
    return this.#kinds.get(action);
  }

  /** The kind's last registered definition, even after it unregistered. */
  last(action: string): CardKind | undefined {
    return this.#ever.get(action);
  }

  wasEverRegistered(action: string): boolean {
    return this.#ever.has(action);
  }

  bySkill(name: string): CardKind | undefined {
    for (const kind of this.#kinds.values()) if (kind.skill.name === name) return kind;
    return undefined;
  }

  actions(): string[] {
    return [...this.#kinds.keys()];
  }

  skills(): string[] {
    return [...this.#kinds.values()].map((k) => k.skill.name);
  }

  /** Each registered kind's skill with its one-line purpose (its own, or the text's first line). */
  skillList(): { name: string; purpose: string }[] {
    return [...this.#kinds.values()].map((k) => ({ name: k.skill.name, purpose: skillPurpose(k.skill) }));
  }
}

function validateKind(kind: CardKind): void {
  const where = `action-cards: kind "${String(kind.action)}"`;
  if (typeof kind.action !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(kind.action)) {
    throw new Error(`${where}: action must be 1–64 lowercase letters, digits or '_', starting with a letter`);
  }
  if (kind.skill.name.trim() === '' || kind.skill.text.trim() === '') throw new Error(`${where}: skill needs a name and a text`);
  if (kind.invitation.trim() === '') throw new Error(`${where}: invitation must not be blank`);
  if ('dismiss' in kind.verbs) throw new Error(`${where}: "dismiss" is Not now, handled by the service; do not declare it`);
  for (const phase of ['proposed', 'replaced']) {
    if (kind.dismissibleIn?.includes(phase)) throw new Error(`${where}: dismissibleIn must list recorded phases, not "${phase}"`);
  }
}

/** A skill's one-line purpose: `purpose`, else the first non-blank line of its text (markdown marks dropped), at most 120 characters. */
export function skillPurpose(skill: { text: string; purpose?: string }): string {
  const line = (skill.purpose ?? skill.text.split('\n').find((l) => l.trim() !== '') ?? '')
    .replace(/^[#>*\-\s]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
