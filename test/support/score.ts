// The self-validation score: each fault run and each control run appends one JSON line
// to the file named by SCORE_FILE (scripts/run-tests.mjs sets it and prints
// `faults caught N/N, controls clean M/M` from it). Any test may report here:
//   {"kind": "fault", "name": "<fault>", "ok": true|false}     a fault was caught (or missed)
//   {"kind": "control", "name": "<control>", "ok": true|false} a control stayed clean (or raised an alarm)
//   {"kind": "load", "name": "<profile>", "ok": true|false}     a load profile's smoke run stayed clean
// Load profiles report their faults with kind "fault" too. The last line per kind and name
// counts. scripts/run-tests.mjs reads the file (plain JS, so it parses the lines itself).
// Without SCORE_FILE nothing is written.
import { appendFileSync } from 'node:fs';

export interface ScoreEntry {
  kind: 'fault' | 'control' | 'load';
  name: string;
  ok: boolean;
}

export function recordScore(entry: ScoreEntry, file = process.env.SCORE_FILE): void {
  if (!file) return;
  // One short line per append: concurrent writers never interleave within a line.
  appendFileSync(file, `${JSON.stringify(entry)}\n`);
}
