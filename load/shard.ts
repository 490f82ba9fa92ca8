// `--shard i/n`: this machine runs 1/n of the profile's rate. Shards write their raw
// histograms and counts (load/figures.ts) and `npm run load:merge` adds them into one
// report. A profile that measures one account's limit needs a distinct account per
// shard, named in the target's scenario inputs with the shard's number.
import { TargetConfigError, type SurfaceTarget } from '../lib/targets.ts';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count || count > 64)
    throw new TargetConfigError(`--shard must be i/n with 1 <= i <= n <= 64, got "${text}"`);
  return { index, count };
}

/** The scenario as shard `index` sees it: each per-shard key replaced by `<key>_<index>` (shard 1 keeps the plain key). */
export function shardTarget(
  target: SurfaceTarget,
  keys: readonly string[] | undefined,
  shard: Shard | undefined,
  profile: string,
): SurfaceTarget {
  if (!shard || shard.count === 1 || !keys?.length || shard.index === 1) return target;
  const scenario = { ...target.scenario };
  const absent: string[] = [];
  for (const key of keys) {
    const own = `${key}_${shard.index}`;
    if (scenario[own] === undefined) absent.push(own);
    else scenario[key] = scenario[own];
  }
  if (absent.length) {
    throw new TargetConfigError(
      `${profile} measures one account's limit, so each shard needs its own: shard ` +
        `${shard.index}/${shard.count} found no scenario input ${absent.join(', ')} ` +
        `(in targets.yaml, e.g. ${absent[0]}_env: <VARIABLE>)`,
    );
  }
  return { ...target, scenario };
}
