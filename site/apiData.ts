/*
 * The part of a Custom Elements Manifest (custom-elements.json) the docs show for each element:
 * its public properties, attributes, events, slots, CSS parts and CSS custom properties, read from
 * the element's class JSDoc by the analyzer. Browser-safe: the build extracts it, the pages show it.
 */

interface Described {
  name: string;
  description?: string;
}
interface Typed extends Described {
  type?: { text: string };
  default?: string;
}
interface Member extends Typed {
  kind: string;
  privacy?: string;
  static?: boolean;
  readonly?: boolean;
  attribute?: string;
}
interface Declaration {
  kind: string;
  tagName?: string;
  customElement?: boolean;
  name: string;
  description?: string;
  members?: Member[];
  attributes?: (Typed & { fieldName?: string })[];
  events?: Typed[];
  slots?: Described[];
  cssParts?: Described[];
  cssProperties?: (Described & { default?: string })[];
}
/** What the docs read of custom-elements.json. */
export interface Manifest {
  modules: { path: string; declarations?: Declaration[] }[];
}

/** One row of an API table. */
export interface ApiRow {
  name: string;
  description: string;
  type?: string;
  default?: string;
  /** A property's attribute, or an attribute's property. */
  also?: string;
  readonly?: boolean;
}

/** One element's API. */
export interface ElementApi {
  tag: string;
  className: string;
  module: string;
  description: string;
  properties: ApiRow[];
  attributes: ApiRow[];
  events: ApiRow[];
  slots: ApiRow[];
  parts: ApiRow[];
  cssProperties: ApiRow[];
}

const row = (item: Typed, also?: string, readonly?: boolean): ApiRow => ({
  name: item.name,
  description: item.description ?? '',
  ...(item.type ? { type: item.type.text } : {}),
  ...(item.default !== undefined ? { default: item.default } : {}),
  ...(also ? { also } : {}),
  ...(readonly ? { readonly } : {}),
});

/** Every custom element of the manifest, by tag: public fields only (no private, protected or static members). */
export function extractApi(manifest: Manifest): Record<string, ElementApi> {
  const out: Record<string, ElementApi> = {};
  for (const module of manifest.modules) {
    for (const d of module.declarations ?? []) {
      if (!d.customElement || !d.tagName) continue;
      out[d.tagName] = {
        tag: d.tagName,
        className: d.name,
        module: module.path,
        description: d.description ?? '',
        properties: (d.members ?? [])
          .filter((m) => m.kind === 'field' && !m.privacy && !m.static && !m.name.startsWith('_'))
          .map((m) => row(m, m.attribute, m.readonly)),
        attributes: (d.attributes ?? []).map((a) => row(a, a.fieldName)),
        events: (d.events ?? []).map((e) => row(e)),
        slots: (d.slots ?? []).map((s) => row(s)),
        parts: (d.cssParts ?? []).map((p) => row(p)),
        cssProperties: (d.cssProperties ?? []).map((p) => row(p)),
      };
    }
  }
  return out;
}
