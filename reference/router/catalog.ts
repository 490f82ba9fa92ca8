// The reference router's model catalog: a few hundred models over several providers,
// generated deterministically, plus the named models the suite's scenarios address
// (written in the reference entry of targets.yaml).

export const ALTERNATES = ['fal', 'wavespeed', 'runware', 'higgsfield'] as const;
export type Alternate = (typeof ALTERNATES)[number];
/** `default` and the two brand aliases name no override. */
export const NATIVE_ALIASES = ['default', 'comfy', 'comfyui'] as const;

export type ModelKind = 'image' | 'video' | 'text' | 'audio' | 'free';

/** Scenario behaviours, each reachable by addressing its model. */
export type Behaviour =
  | 'native-fails' // the native provider is unavailable; fallback serves the call
  | 'broken-output' // the partner answers something that cannot be turned into a result (502)
  | 'deadline' // the partner does not answer within the call's deadline (504)
  | 'busy' // the router is at capacity for this model (503 with Retry-After)
  | 'slow' // takes long enough to observe in-flight and queued states
  | 'restricted' // no caller may use it (403 forbidden)
  | 'gallery' // answers more than the replay size cap
  | 'stale-card' // its rate card is stale
  | 'unpriced' // the rate card does not price it
  | 'schema-unbuildable'; // its schema document cannot be built (the schema route answers 500)

export interface ModelDef {
  id: string;
  provider: string;
  model: string;
  kind: ModelKind;
  chargesOnPolicyRejection: 'yes' | 'no' | 'unknown';
  alternates: Alternate[];
  /** Input schema authored (else any JSON object is accepted). */
  authored: boolean;
  /** Top-level undeclared fields are not allowed by the schema (reject_unknown_fields can refuse them). */
  closed: boolean;
  /** Dollar rate per unit of the native leg, by operation. */
  rates: Record<string, string>;
  behaviour?: Behaviour;
  listed: boolean;
  retired?: { on: string; successor?: string };
  sunset?: string;
}

const ADJECTIVES = [
  'swift',
  'lumen',
  'quartz',
  'ember',
  'nova',
  'atlas',
  'cobalt',
  'drift',
  'echo',
  'fable',
  'glint',
  'harbor',
  'iris',
  'juniper',
  'kite',
  'lotus',
  'mosaic',
  'nimbus',
  'onyx',
  'prism',
  'quill',
  'raven',
];
const IMAGE_RATES = ['0.0125', '0.03', '0.04', '0.055', '0.0035', '0.00125', '0.08', '0.0205'];
const ALT_SETS: Alternate[][] = [
  ['fal', 'wavespeed'],
  ['fal'],
  ['runware', 'wavespeed'],
  [],
  ['higgsfield', 'fal'],
  ['wavespeed'],
];

function imageRates(base: string): Record<string, string> {
  // Edits are metered at their own rate.
  const [w, f = ''] = base.split('.');
  const edit = (Number(`${w}.${f}`) * 1.5).toFixed(8).replace(/0+$/, '');
  return { text_to_image: base, image_to_image: edit };
}

type Unnamed = Omit<ModelDef, 'id' | 'listed'> & { listed?: boolean };

/** A model of the catalog, listed unless it says otherwise. */
function defined(def: Unnamed): ModelDef {
  return { listed: true, ...def, id: `${def.provider}/${def.model}` };
}

/** A chat model of textile, priced by the token. */
function textile(model: string): Unnamed {
  return {
    provider: 'textile',
    model,
    kind: 'text',
    chargesOnPolicyRejection: 'no',
    alternates: [],
    authored: true,
    closed: false,
    rates: { input_token: '0.0000005', output_token: '0.0000015' },
  };
}

/** A voice model of sonora, priced by the character. */
function sonora(model: string): Unnamed {
  return {
    provider: 'sonora',
    model,
    kind: 'audio',
    chargesOnPolicyRejection: 'unknown',
    alternates: [],
    authored: true,
    closed: true,
    rates: { character: '0.000015' },
  };
}

/** A free-form model of misc: no authored schema and no price. */
function misc(model: string): Unnamed {
  return {
    provider: 'misc',
    model,
    kind: 'free',
    chargesOnPolicyRejection: 'unknown',
    alternates: [],
    authored: false,
    closed: false,
    rates: {},
    behaviour: 'unpriced',
  };
}

function generated(): ModelDef[] {
  const out: ModelDef[] = [];
  const push = (def: Unnamed): void => {
    out.push(defined(def));
  };
  const charges = ['yes', 'no', 'unknown'] as const;
  for (let i = 0; i < 110; i++) {
    const name = `pf-${ADJECTIVES[i % ADJECTIVES.length]}-${Math.floor(i / ADJECTIVES.length) + 1}${i % 7 === 0 ? '.5' : ''}`;
    push({
      provider: 'pixelforge',
      model: name,
      kind: 'image',
      chargesOnPolicyRejection: charges[i % 3],
      alternates: ALT_SETS[i % ALT_SETS.length],
      authored: true,
      closed: i % 2 === 0,
      rates: imageRates(IMAGE_RATES[i % IMAGE_RATES.length]),
    });
  }
  for (let i = 0; i < 60; i++) {
    const name = `lm_${ADJECTIVES[(i * 5) % ADJECTIVES.length]}-v${(i % 4) + 1}-${i}`;
    push({
      provider: 'lumina',
      model: name,
      kind: 'image',
      chargesOnPolicyRejection: charges[(i + 1) % 3],
      alternates: i % 3 === 0 ? ['higgsfield', 'fal'] : [],
      authored: true,
      closed: false,
      rates: imageRates(IMAGE_RATES[(i + 3) % IMAGE_RATES.length]),
    });
  }
  for (let i = 0; i < 40; i++) {
    push({
      provider: 'vidra',
      model: `clip-${ADJECTIVES[(i * 3) % ADJECTIVES.length]}-${i}`,
      kind: 'video',
      chargesOnPolicyRejection: 'yes',
      alternates: i % 2 === 0 ? ['fal'] : [],
      authored: true,
      closed: false,
      rates: {
        text_to_video: '0.0243',
        image_to_video: '0.0243',
        reference_to_video: '0.0304',
        video_to_video: '0.0417',
      },
    });
  }
  for (let i = 0; i < 50; i++) {
    push(textile(`chat-${ADJECTIVES[(i * 7) % ADJECTIVES.length]}-${i}`));
  }
  for (let i = 0; i < 25; i++) {
    push(sonora(`voice-${ADJECTIVES[(i * 11) % ADJECTIVES.length]}-${i}`));
  }
  for (let i = 0; i < 20; i++) {
    push(misc(`freeform-${i}`));
  }
  return out;
}

/** The named models the scenarios use (see targets.yaml, reference entry, router.scenario). */
function named(): ModelDef[] {
  const image = (model: string, extra: Partial<ModelDef> = {}): ModelDef => ({
    id: `pixelforge/${model}`,
    provider: 'pixelforge',
    model,
    kind: 'image',
    chargesOnPolicyRejection: 'no',
    alternates: ['fal', 'wavespeed'],
    authored: true,
    closed: true,
    rates: imageRates('0.0125'),
    listed: true,
    ...extra,
  });
  return [
    image('pf-flux-lite'),
    image('pf-flaky', { behaviour: 'native-fails' }),
    image('pf-relay', { alternates: ['runware', 'wavespeed'] }),
    image('pf-broken', { behaviour: 'broken-output', alternates: [] }),
    image('pf-timeout', { behaviour: 'deadline', alternates: [] }),
    image('pf-busy', { behaviour: 'busy' }),
    image('pf-slow', { behaviour: 'slow' }),
    image('pf-restricted', { behaviour: 'restricted', listed: false }),
    image('pf-gallery', { behaviour: 'gallery', alternates: [] }),
    image('pf-tiny', { rates: imageRates('0.00004') }),
    image('pf-unpriced', { behaviour: 'unpriced' }),
    image('pf-schema-lost', { behaviour: 'schema-unbuildable', listed: false }),
    image('pf-sunset', { sunset: '2099-12-31' }),
    image('pf-legacy-1', { listed: false, retired: { on: '2025-03-31' } }),
    image('pf-legacy-2', { listed: false, retired: { on: '2025-06-30', successor: 'pixelforge/pf-flux-lite' } }),
    {
      id: 'vidra/seedance-sim',
      provider: 'vidra',
      model: 'seedance-sim',
      kind: 'video',
      chargesOnPolicyRejection: 'yes',
      alternates: ['fal'],
      authored: true,
      closed: false,
      rates: {
        text_to_video: '0.0243',
        image_to_video: '0.0289',
        reference_to_video: '0.0304',
        video_to_video: '0.0417',
      },
      listed: true,
    },
    defined(textile('chat-small')),
    defined({ ...textile('chat-stale'), behaviour: 'stale-card' }),
    defined(sonora('tts-mini')),
    defined(misc('freeform')),
  ];
}

export class Catalog {
  readonly all: ReadonlyMap<string, ModelDef>;
  /** Listed models in a stable order (what the catalog pages walk). */
  readonly listed: ReadonlyArray<ModelDef>;
  /** Changes when the catalog is rebuilt, so old cursors stop working. */
  readonly epoch: string;

  constructor(epoch: string) {
    const defs = [...named(), ...generated()];
    this.all = new Map(defs.map((d) => [d.id, d]));
    this.listed = defs.filter((d) => d.listed).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.epoch = epoch;
  }

  get(provider: string, model: string): ModelDef | undefined {
    return this.all.get(`${provider}/${model}`);
  }
}

const SEGMENT = /^[a-z0-9]+([._-][a-z0-9]+)*$/;

export function validSegments(provider: string, model: string): boolean {
  return SEGMENT.test(provider) && provider.length <= 64 && SEGMENT.test(model) && model.length <= 128;
}
