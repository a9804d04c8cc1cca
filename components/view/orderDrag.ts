/*
 * Pointer drag for an order field: press an item's handle, move, release. The item moves as the
 * pointer passes the middle of a neighbour, so what the person sees is always the value; the
 * live region says where it ended. Keyboard users have Alt+Arrow and the move buttons instead.
 */

export interface OrderDragHost {
  /** Moves `optionId` of the field at `fieldIndex` to `to` (0-based); announces only when `announce`. */
  moveTo(fieldIndex: number, optionId: string, to: number, announce: boolean): void;
  /** Called once the item is released (announce its final place, focus it). */
  dropped(fieldIndex: number, optionId: string): void;
  requestUpdate(): void;
}

interface Drag {
  fieldIndex: number;
  optionId: string;
  pointerId: number;
  list: HTMLElement;
}

/** One drag at a time across the element's order fields. */
export class OrderDrag {
  private drag: Drag | undefined;

  constructor(private readonly host: OrderDragHost) {}

  /** The option id being dragged in the field at `fieldIndex`. */
  draggingIn(fieldIndex: number): string | undefined {
    return this.drag?.fieldIndex === fieldIndex ? this.drag.optionId : undefined;
  }

  /** `pointerdown` on a listbox: starts a drag when it lands on an item's handle. */
  start(e: PointerEvent, disabled: boolean): void {
    const handle = (e.target as HTMLElement | null)?.closest<HTMLElement>('[data-handle]');
    const item = handle?.closest<HTMLElement>('[role="option"]');
    const list = item?.closest<HTMLElement>('[role="listbox"]');
    if (!handle || !item || !list || disabled || e.button !== 0 || this.drag) return;
    e.preventDefault(); // no text selection, no focus change until the drop
    this.drag = { fieldIndex: Number(item.dataset['field']), optionId: item.dataset['value']!, pointerId: e.pointerId, list };
    try {
      list.setPointerCapture(e.pointerId);
    } catch {
      /* a synthetic pointer: events still reach the list */
    }
    list.addEventListener('pointermove', this.onMove);
    list.addEventListener('pointerup', this.onEnd);
    list.addEventListener('pointercancel', this.onEnd);
    this.host.requestUpdate();
  }

  private onMove = (e: PointerEvent): void => {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    const items = [...drag.list.querySelectorAll<HTMLElement>('[role="option"]')];
    const from = items.findIndex((el) => el.dataset['value'] === drag.optionId);
    let to = from;
    // Past the middle of the next (or previous) item: take its place.
    while (to < items.length - 1 && e.clientY > middle(items[to + 1]!)) to++;
    while (to > 0 && e.clientY < middle(items[to - 1]!)) to--;
    if (to !== from && from >= 0) this.host.moveTo(drag.fieldIndex, drag.optionId, to, false);
  };

  private onEnd = (e: PointerEvent): void => {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    this.stop();
    this.host.dropped(drag.fieldIndex, drag.optionId);
  };

  /** Ends a drag without a drop (the model changed, the element left the page). */
  stop(): void {
    const drag = this.drag;
    if (!drag) return;
    this.drag = undefined;
    drag.list.removeEventListener('pointermove', this.onMove);
    drag.list.removeEventListener('pointerup', this.onEnd);
    drag.list.removeEventListener('pointercancel', this.onEnd);
    try {
      drag.list.releasePointerCapture(drag.pointerId);
    } catch {
      /* already released */
    }
    this.host.requestUpdate();
  }
}

function middle(el: HTMLElement): number {
  const r = el.getBoundingClientRect();
  return r.top + r.height / 2;
}
