// The registry's nodes and the translations attached to them, in memory. The node set is
// fixed: the seed's operation attaches translations to an existing node, so an id that
// names none is answered 404 (public documents).

export interface RegistryNode {
  id: string;
  name: string;
  description: string;
  publisher: string;
}

/** A node whose id needs percent-encoding (space, `%`, `/`, non-ASCII): proves ids travel intact. */
export const UNUSUAL_NODE_ID = 'ref-pack 100%/ü';

const NODES: ReadonlyArray<RegistryNode> = [
  {
    id: 'ref-image-tools',
    name: 'Reference image tools',
    description: 'Small image nodes of the embedded reference.',
    publisher: 'reference',
  },
  {
    id: 'ref-upscale-pack',
    name: 'Reference upscale pack',
    description: 'Upscalers for the embedded reference.',
    publisher: 'reference',
  },
  {
    id: UNUSUAL_NODE_ID,
    name: 'Reference pack with an awkward id',
    description: 'Its id must be percent-encoded as a path segment.',
    publisher: 'reference',
  },
];

export type Translations = Record<string, Record<string, unknown>>;

export class TranslationStore {
  private readonly nodes = new Map<string, RegistryNode>(NODES.map((n) => [n.id, n]));
  private readonly translations = new Map<string, Map<string, Record<string, unknown>>>();

  node(id: string): RegistryNode | undefined {
    return this.nodes.get(id);
  }

  /** Registers a node on the fly (used only by a fault that accepts unknown ids). */
  adopt(id: string): RegistryNode {
    const node = { id, name: id, description: '', publisher: 'unknown' };
    this.nodes.set(id, node);
    return node;
  }

  /** Each language's object replaces that language's earlier one; other languages stay. */
  put(id: string, data: Translations): Translations {
    const byLang = this.translations.get(id) ?? new Map<string, Record<string, unknown>>();
    for (const [lang, value] of Object.entries(data)) byLang.set(lang, value);
    this.translations.set(id, byLang);
    return Object.fromEntries(byLang);
  }
}
