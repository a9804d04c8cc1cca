/*
 * The order fields of a view, after the WAI-ARIA APG rearrangeable listbox: which item is selected
 * in each, and moving items with Alt+Arrow, the move buttons or a pointer drag. Focus stays on the
 * moved item and the view's live region says where it went.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { OrderField, TaskSurfaceField, TaskSurfaceModelV1, TaskSurfaceValues } from '../../protocol/index.js';
import { strings, type Lang } from '../i18n/index.js';
import type { FieldContext } from './fields.js';
import { OrderDrag } from './orderDrag.js';
import { clipMarks } from './text.js';

/** The view as the order fields read it: its public properties. */
export interface OrderFieldHost extends ReactiveControllerHost {
  readonly renderRoot: ParentNode;
  readonly model: TaskSurfaceModelV1 | null;
  readonly currentValues: TaskSurfaceValues;
  readonly lang: Lang;
}

/** What the view keeps private and lends its order fields. */
export interface ViewInternals {
  /** The field and element an event came from. */
  fieldAt(target: EventTarget | null): [TaskSurfaceField, HTMLElement] | undefined;
  /** No control answers: a submission is out, or the model is still being written. */
  locked(): boolean;
  setValue(field: OrderField, ids: string[]): void;
  /** Says `text` in the view's live region. */
  announce(text: string): void;
  /** Focuses an item of the order field at `fieldIndex`. */
  focusOption(fieldIndex: number, optionId: string): void;
}

/** What the order fields add to the view's `FieldContext`. */
type OrderFieldContext = 'orderSelection' | 'dragging' | 'onOrderClick' | 'onOrderKey' | 'onOrderButton' | 'onOrderPointerDown';

/** The selection and moves of every order field in one view; a drag ends when the view leaves the page. */
export class OrderFieldController implements ReactiveController {
  private selected: ReadonlyMap<string, string> = new Map();

  constructor(
    private readonly host: OrderFieldHost,
    private readonly view: ViewInternals,
  ) {
    host.addController(this);
  }

  /** The model's fields; the DOM names a field by its index here (`data-field`). */
  private get fields(): readonly TaskSurfaceField[] {
    return this.host.model?.fields ?? [];
  }

  hostDisconnected(): void {
    this.drag.stop();
  }

  /** A new model: nothing selected, no drag. */
  reset(): void {
    this.selected = new Map();
    this.drag.stop();
  }

  /** The order fields' part of the view's `FieldContext`. */
  readonly context: Pick<FieldContext, OrderFieldContext> = {
    orderSelection: (field) => this.selected.get(field.id) ?? this.ids(field)[0] ?? '',
    dragging: (field) => this.drag.draggingIn(this.fields.indexOf(field)),
    onOrderClick: (e) => {
      const hit = this.orderAt(e.target);
      if (!hit || hit[1].getAttribute('role') !== 'option') return;
      this.select(hit[0], hit[1].dataset['value']!);
      hit[1].focus();
    },
    onOrderKey: (e) => {
      const hit = this.orderAt(e.target);
      if (!hit) return;
      const [field, el] = hit;
      const ids = this.ids(field);
      const at = ids.indexOf(el.dataset['value']!);
      const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
      if (step !== 0 && e.altKey) {
        e.preventDefault();
        void this.move(field, el.dataset['value']!, step, true);
      } else if (step !== 0 || e.key === 'Home' || e.key === 'End') {
        e.preventDefault();
        const to = e.key === 'Home' ? 0 : e.key === 'End' ? ids.length - 1 : Math.min(ids.length - 1, Math.max(0, at + step));
        this.select(field, ids[to]!);
        this.view.focusOption(this.fields.indexOf(field), ids[to]!);
      }
    },
    onOrderButton: (e) => {
      const hit = this.orderAt(e.target);
      if (!hit) return;
      const [field, button] = hit;
      const optionId = button.dataset['value']!;
      const step = Number(button.dataset['move']);
      void this.move(field, optionId, step, false)
        .then(() => this.host.updateComplete)
        .then(() => {
          // Focus follows the item's button; at an end (that button is now disabled) its other one.
          const index = this.fields.indexOf(field);
          const mine = [...this.host.renderRoot.querySelectorAll<HTMLButtonElement>(`button[data-field="${index}"][data-move]`)].filter(
            (b) => b.dataset['value'] === optionId,
          );
          (mine.find((b) => Number(b.dataset['move']) === step && !b.disabled) ?? mine.find((b) => !b.disabled))?.focus();
        });
    },
    onOrderPointerDown: (e) => this.drag.start(e, this.view.locked()),
  };

  private readonly drag = new OrderDrag({
    moveTo: (fieldIndex, optionId, to, announce) => {
      if (this.view.locked()) return this.drag.stop(); // a submission started mid-drag: the values are locked
      const field = this.fields[fieldIndex];
      if (field?.kind === 'order') this.moveTo(field, optionId, to, announce);
    },
    dropped: (fieldIndex, optionId) => {
      const field = this.fields[fieldIndex];
      if (field?.kind !== 'order') return;
      const ids = this.ids(field);
      this.view.announce(strings(this.host.lang).moved(this.optionLabel(field, optionId), ids.indexOf(optionId) + 1, ids.length));
      void this.host.updateComplete.then(() => this.view.focusOption(fieldIndex, optionId));
    },
    requestUpdate: () => this.host.requestUpdate(),
  });

  private orderAt(target: EventTarget | null): [OrderField, HTMLElement] | undefined {
    const hit = this.view.fieldAt(target);
    return hit?.[0].kind === 'order' ? (hit as [OrderField, HTMLElement]) : undefined;
  }

  private ids(field: OrderField): string[] {
    const value = this.host.currentValues[field.id];
    return Array.isArray(value) ? value : field.options.map((o) => o.id);
  }

  private select(field: OrderField, optionId: string): void {
    this.selected = new Map([...this.selected, [field.id, optionId]]);
    this.host.requestUpdate();
  }

  private optionLabel(field: OrderField, optionId: string): string {
    return clipMarks(field.options.find((o) => o.id === optionId)?.label ?? optionId);
  }

  /** Puts an order item at `to` (0-based) and selects it; announces the new place when asked. */
  private moveTo(field: OrderField, optionId: string, to: number, announce: boolean): boolean {
    const s = strings(this.host.lang);
    const ids = [...this.ids(field)];
    const at = ids.indexOf(optionId);
    const label = this.optionLabel(field, optionId);
    this.select(field, optionId);
    if (at < 0 || to < 0 || to >= ids.length || to === at) {
      if (announce) this.view.announce(s.cannotMove(label, at + 1, ids.length));
      return false;
    }
    ids.splice(at, 1);
    ids.splice(to, 0, optionId);
    this.view.setValue(field, ids);
    if (announce) this.view.announce(s.moved(label, to + 1, ids.length));
    return true;
  }

  /** Moves an order item by `step`, announces where it went, and keeps focus on it when asked. */
  private async move(field: OrderField, optionId: string, step: number, keepFocus: boolean): Promise<void> {
    if (this.view.locked()) return;
    const at = this.ids(field).indexOf(optionId);
    const moved = this.moveTo(field, optionId, at + step, true);
    if (!moved) return;
    if (keepFocus) {
      await this.host.updateComplete;
      this.view.focusOption(this.fields.indexOf(field), optionId);
    }
  }
}
