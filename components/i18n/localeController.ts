import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { onLocalesChanged } from './registry.js';

/** Renders its element again when a locale registers or is removed (a product may add one after mounting). */
export class LocaleController implements ReactiveController {
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {
    this.unsubscribe = onLocalesChanged(() => this.host.requestUpdate());
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }
}
