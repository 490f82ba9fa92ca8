export interface AssetRecord {
  readonly id: string;
  readonly account: string;
  readonly hex: string;
  readonly size_bytes: number;
  readonly content_type: string;
  readonly file_path: string | null;
  readonly tags: readonly string[];
  readonly created_at: string;
  /** The job that produced the asset; uploads have none. */
  readonly job_id?: string;
}

const pairKey = (account: string, hex: string): string => `${account}\n${hex}`;

function addTo(index: Map<string, Set<string>>, key: string, id: string): void {
  let set = index.get(key);
  if (set === undefined) {
    set = new Set();
    index.set(key, set);
  }
  set.add(id);
}

// In-memory records plus the per (account, blob) retention deadline. Deleted
// records are dropped outright; the blob stays on disk.
export class AssetStore {
  private readonly records = new Map<string, AssetRecord>();
  private readonly byAccountBlob = new Map<string, Set<string>>();
  private readonly byBlob = new Map<string, Set<string>>();
  private readonly deadlines = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  // A record past its account's retention deadline is gone, as if deleted.
  private live(rec: AssetRecord | undefined): AssetRecord | undefined {
    if (rec === undefined) return undefined;
    const deadline = this.deadlines.get(pairKey(rec.account, rec.hex));
    if (deadline !== undefined && deadline <= this.now()) return undefined;
    return rec;
  }

  private liveIn(ids: Set<string> | undefined): AssetRecord[] {
    if (ids === undefined) return [];
    const out: AssetRecord[] = [];
    for (const id of ids) {
      const rec = this.live(this.records.get(id));
      if (rec !== undefined) out.push(rec);
    }
    return out;
  }

  get(id: string): AssetRecord | undefined {
    return this.live(this.records.get(id));
  }

  holds(account: string, hex: string): boolean {
    return this.liveIn(this.byAccountBlob.get(pairKey(account, hex))).length > 0;
  }

  /** Whether a job produced these bytes (some live asset over the blob carries a job). */
  isOutputBlob(hex: string): boolean {
    return this.liveIn(this.byBlob.get(hex)).some((r) => r.job_id !== undefined);
  }

  heldByAnyone(hex: string): boolean {
    return this.liveIn(this.byBlob.get(hex)).length > 0;
  }

  /** Any live record over the blob, preferring the account's own. */
  template(account: string, hex: string): AssetRecord | undefined {
    return this.liveIn(this.byAccountBlob.get(pairKey(account, hex)))[0] ?? this.liveIn(this.byBlob.get(hex))[0];
  }

  /** The account's newest live asset at a file path, whatever its bytes (v2 `image: "<name>"` inputs). */
  findOwnedByPath(account: string, filePath: string): AssetRecord | undefined {
    let found: AssetRecord | undefined;
    for (const rec of this.records.values()) {
      if (rec.account === account && rec.file_path === filePath && this.live(rec) !== undefined) found = rec;
    }
    return found;
  }

  findByPath(account: string, hex: string, filePath: string | null): AssetRecord | undefined {
    return this.liveIn(this.byAccountBlob.get(pairKey(account, hex))).find((r) => r.file_path === filePath);
  }

  add(rec: AssetRecord): void {
    this.records.set(rec.id, rec);
    addTo(this.byAccountBlob, pairKey(rec.account, rec.hex), rec.id);
    addTo(this.byBlob, rec.hex, rec.id);
  }

  remove(id: string): void {
    const rec = this.records.get(id);
    if (rec === undefined) return;
    this.records.delete(id);
    const key = pairKey(rec.account, rec.hex);
    const own = this.byAccountBlob.get(key);
    own?.delete(id);
    // Once nothing references the blob for this account, an old deadline must
    // not carry over to a later, unrelated upload of the same bytes.
    if (own !== undefined && own.size === 0) {
      this.byAccountBlob.delete(key);
      this.deadlines.delete(key);
    }
    this.byBlob.get(rec.hex)?.delete(id);
  }

  deadline(account: string, hex: string): number | undefined {
    return this.deadlines.get(pairKey(account, hex));
  }

  setDeadline(account: string, hex: string, atMs: number): void {
    this.deadlines.set(pairKey(account, hex), atMs);
  }
}
