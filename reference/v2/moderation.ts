// Content moderation, simulated: bytes carrying the marker below are flagged, and
// reads of their assets answer 451 content_blocked. The marker is the reference's
// scenario input `blocked_content_marker` in targets.yaml.
import { readFileSync } from 'node:fs';
import type { BlobStore } from '../blobs.ts';

export const BLOCKED_CONTENT_MARKER = 'conformance-moderation-block';
const MARKER = Buffer.from(BLOCKED_CONTENT_MARKER, 'latin1');

export class Moderation {
  private readonly verdicts = new Map<string, boolean>();

  constructor(private readonly blobs: BlobStore) {}

  flagged(hex: string): boolean {
    let verdict = this.verdicts.get(hex);
    if (verdict === undefined) {
      try {
        verdict = readFileSync(this.blobs.pathOf(hex)).includes(MARKER);
      } catch {
        verdict = false;
      }
      this.verdicts.set(hex, verdict);
    }
    return verdict;
  }
}
