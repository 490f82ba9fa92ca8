// Live progress while a profile runs: one rewritten status line on a terminal, plain
// lines (every five seconds) when the output is a file or a CI log.
import type { Second } from './timeline.ts';
import type { LoadSettings } from './types.ts';

export interface Progress {
  line(text: string): void;
  start(profile: string, settings: LoadSettings, model: string): void;
  tick(elapsedS: number, totalS: number, last: Second | undefined, violations: number): void;
  end(): void;
}

function status(elapsedS: number, totalS: number, last: Second | undefined, violations: number): string {
  const phase = last?.warmup ? 'warm-up' : 'load';
  const rate = last ? `${last.achieved}/${last.requested} req/s` : '-';
  const lat =
    last && Number.isFinite(last.p50) ? `p50 ${last.p50.toFixed(1)} ms  p99 ${last.p99.toFixed(1)} ms` : 'p50 -  p99 -';
  const codes = last
    ? Object.entries(last.statuses)
        .map(([k, v]) => `${k}:${v}`)
        .join(' ')
    : '';
  return (
    `[${Math.min(elapsedS, totalS).toFixed(0).padStart(3)}/${totalS}s ${phase}] ${rate}  ${lat} ` +
    ` errors ${last?.errors ?? 0}  late ${last?.late ?? 0}  contract ${violations}  ${codes}`
  );
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, quiet = false): Progress {
  const tty = stream.isTTY === true;
  let lastPlain = -Infinity;
  let open = false;
  return {
    line(text) {
      if (quiet) return;
      if (open) stream.write('\n');
      open = false;
      stream.write(`${text}\n`);
    },
    start(profile, s, model) {
      if (quiet) return;
      stream.write(
        `${profile}: ${s.rate} req/s over ${s.connections} connections, ${s.warmupS} s warm-up + ${s.durationS} s measured; ${model}\n`,
      );
    },
    tick(elapsedS, totalS, last, violations) {
      if (quiet) return;
      const text = status(elapsedS, totalS, last, violations);
      if (tty) {
        stream.write(`\r\x1b[2K${text}`);
        open = true;
      } else if (elapsedS - lastPlain >= 5) {
        lastPlain = elapsedS;
        stream.write(`${text}\n`);
      }
    },
    end() {
      if (quiet) return;
      if (open) stream.write('\n');
      open = false;
    },
  };
}
