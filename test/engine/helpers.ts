// Shared helpers for the engine tests: an in-memory host, a PNG writer that applies a
// chosen scanline filter (independent of the engine's encoder), and a runner that
// collects one job's events until its terminal status.
import { crc32, deflateSync } from 'node:zlib';
import { createCatalog, type Catalog } from '../../reference/engine/catalog.ts';
import { Executor } from '../../reference/engine/executor.ts';
import type {
  ApiWorkflow,
  EngineEvent,
  EngineHost,
  Image,
  JobState,
  StoredOutput,
} from '../../reference/engine/types.ts';

export interface StoredCall {
  jobId: string;
  account: string;
  nodeId: string;
  kind: 'output' | 'temp';
  png: Uint8Array;
  filenamePrefix: string;
  index: number;
}

export class FakeHost implements EngineHost {
  readonly assets = new Map<string, Uint8Array>();
  readonly inputs = new Map<string, Uint8Array>();
  readonly stored: StoredCall[] = [];

  addAsset(account: string, id: string, bytes: Uint8Array): void {
    this.assets.set(`${account}\n${id}`, bytes);
  }

  addInput(account: string, name: string, bytes: Uint8Array): void {
    this.inputs.set(`${account}\n${name}`, bytes);
  }

  assetBytes(account: string, assetId: string): Uint8Array | undefined {
    return this.assets.get(`${account}\n${assetId}`);
  }

  inputFileBytes(account: string, name: string): Uint8Array | undefined {
    return this.inputs.get(`${account}\n${name}`);
  }

  storeOutput(out: StoredCall): StoredOutput {
    this.stored.push(out);
    const n = this.stored.length;
    const filename = `${out.filenamePrefix}_${String(n).padStart(5, '0')}_.png`;
    return {
      ref: `ref-${n}`,
      filename,
      subfolder: '',
      type: out.kind,
      contentType: 'image/png',
      sizeBytes: out.png.length,
    };
  }
}

export function image(width: number, height: number, channels: 3 | 4, seed = 1): Image {
  const data = new Uint8Array(width * height * channels);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < data.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = x & 0xff;
  }
  return { width, height, channels, data };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export interface CraftOptions {
  /** Filter type per row (0..4); a function of the row index. */
  filter?: (row: number) => number;
  bitDepth?: number;
  colorType?: number;
  interlace?: number;
  /** Split the compressed data over this many IDAT chunks. */
  idatChunks?: number;
  /** Extra ancillary chunk before IDAT. */
  ancillary?: boolean;
}

/** Writes a PNG of the image with the requested filters, independently of reference/engine/png.ts. */
export function craftPng(img: Image, opts: CraftOptions = {}): Buffer {
  const { width, height, channels, data } = img;
  const stride = width * channels;
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const f = opts.filter ? opts.filter(y) : 0;
    raw[y * (stride + 1)] = f;
    for (let x = 0; x < stride; x++) {
      const cur = data[y * stride + x];
      const left = x >= channels ? data[y * stride + x - channels] : 0;
      const up = y > 0 ? data[(y - 1) * stride + x] : 0;
      const upLeft = x >= channels && y > 0 ? data[(y - 1) * stride + x - channels] : 0;
      const pred =
        f === 0
          ? 0
          : f === 1
            ? left
            : f === 2
              ? up
              : f === 3
                ? (left + up) >> 1
                : f === 4
                  ? paeth(left, up, upLeft)
                  : 0;
      raw[y * (stride + 1) + 1 + x] = (cur - pred) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = opts.bitDepth ?? 8;
  ihdr[9] = opts.colorType ?? (channels === 4 ? 6 : 2);
  ihdr[12] = opts.interlace ?? 0;
  const z = deflateSync(raw);
  const n = Math.max(1, opts.idatChunks ?? 1);
  const size = Math.ceil(z.length / n);
  const idats: Buffer[] = [];
  for (let i = 0; i < z.length; i += size) idats.push(pngChunk('IDAT', z.subarray(i, i + size)));
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const extra = opts.ancillary ? [pngChunk('tEXt', Buffer.from('Comment\0hello', 'latin1'))] : [];
  return Buffer.concat([sig, pngChunk('IHDR', ihdr), ...extra, ...idats, pngChunk('IEND', Buffer.alloc(0))]);
}

export interface Harness {
  host: FakeHost;
  catalog: Catalog;
  executor: Executor;
  events: EngineEvent[];
}

export function harness(
  opts: {
    concurrency?: number | ((account: string) => number);
    partnerKeyField?: string;
    catalogKeyField?: string;
  } = {},
): Harness {
  const host = new FakeHost();
  const catalog = createCatalog(opts.catalogKeyField ? { partnerKeyField: opts.catalogKeyField } : {});
  const c = opts.concurrency ?? 3;
  const executor = new Executor({
    host,
    catalog,
    concurrencyFor: typeof c === 'function' ? c : () => c,
    ...(opts.partnerKeyField ? { partnerKeyField: opts.partnerKeyField } : {}),
  });
  const events: EngineEvent[] = [];
  executor.on('event', (e) => events.push(e));
  return { host, catalog, executor, events };
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

/** Resolves with the job's events once its terminal status event arrives. */
export function untilDone(executor: Executor, jobId: string, timeoutMs = 5000): Promise<EngineEvent[]> {
  return new Promise((resolve, reject) => {
    const seen: EngineEvent[] = [];
    const timer = setTimeout(() => {
      executor.off('event', on);
      reject(new Error(`job ${jobId} did not finish in ${timeoutMs} ms; saw ${seen.map(label).join(', ')}`));
    }, timeoutMs);
    function on(e: EngineEvent): void {
      if (e.jobId !== jobId) return;
      seen.push(e);
      if (e.kind === 'status' && TERMINAL.has(e.status)) {
        clearTimeout(timer);
        executor.off('event', on);
        resolve(seen);
      }
    }
    executor.on('event', on);
  });
}

/** Resolves with the first event of the job matching the predicate. */
export function nextEvent(
  executor: Executor,
  jobId: string,
  pred: (e: EngineEvent) => boolean,
  timeoutMs = 5000,
): Promise<EngineEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      executor.off('event', on);
      reject(new Error(`no matching event for ${jobId} in ${timeoutMs} ms`));
    }, timeoutMs);
    function on(e: EngineEvent): void {
      if (e.jobId === jobId && pred(e)) {
        clearTimeout(timer);
        executor.off('event', on);
        resolve(e);
      }
    }
    executor.on('event', on);
  });
}

/** A compact label of an event for sequence assertions, e.g. `executing:2`, `status:queued`. */
export function label(e: EngineEvent): string {
  switch (e.kind) {
    case 'status':
      return `status:${e.status}`;
    case 'executing':
      return `executing:${e.node ?? 'null'}`;
    case 'progress':
    case 'preview':
    case 'text':
    case 'executed':
      return `${e.kind}:${e.node}`;
    case 'execution_interrupted':
      return `execution_interrupted:${e.node ?? 'null'}`;
    default:
      return e.kind;
  }
}

/** Submits and waits for the terminal status; returns events and final state. */
export async function runJob(
  h: Harness,
  id: string,
  workflow: Record<string, unknown>,
  extraData?: Record<string, unknown>,
  account = 'alice',
): Promise<{ events: EngineEvent[]; state: JobState }> {
  const done = untilDone(h.executor, id);
  h.executor.submit({ id, account, workflow: workflow as ApiWorkflow, ...(extraData ? { extraData } : {}) });
  const events = await done;
  return { events, state: h.executor.get(id)! };
}
