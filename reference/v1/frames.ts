// Binary WebSocket frames as the reference writes them (seed W § Events: every
// integer big-endian). The suite has its own decoder; this is the server's side.
import type { IsFault } from '../faults.ts';

export const FRAME = { PREVIEW_IMAGE: 1, TEXT: 3, PREVIEW_IMAGE_WITH_METADATA: 4 } as const;
export const IMAGE_TYPE = { JPEG: 1, PNG: 2 } as const;

export interface PreviewMetadata {
  node_id: string;
  display_node_id: string;
  real_node_id: string;
  prompt_id: string;
  parent_node_id: string | null;
  /** The engine also names the image's media type here (the seed lists the five above). */
  image_type?: string;
}

function header(type: number, second: number, isFault: IsFault): Buffer {
  const head = Buffer.alloc(8);
  if (isFault('ws-frame-little-endian')) {
    head.writeUInt32LE(type, 0);
    head.writeUInt32LE(second, 4);
  } else {
    head.writeUInt32BE(type, 0);
    head.writeUInt32BE(second, 4);
  }
  return head;
}

export function previewImageFrame(png: Uint8Array, isFault: IsFault): Buffer {
  const imageType = isFault('ws-preview-type-mismatch') ? IMAGE_TYPE.JPEG : IMAGE_TYPE.PNG;
  return Buffer.concat([header(FRAME.PREVIEW_IMAGE, imageType, isFault), png]);
}

export function textFrame(nodeId: string, text: string, isFault: IsFault): Buffer {
  const id = Buffer.from(nodeId, 'utf8');
  const len = id.length + (isFault('ws-text-node-length-off-by-one') ? 1 : 0);
  return Buffer.concat([header(FRAME.TEXT, len, isFault), id, Buffer.from(text, 'utf8')]);
}

export function previewWithMetadataFrame(meta: PreviewMetadata, png: Uint8Array, isFault: IsFault): Buffer {
  const json = Buffer.from(JSON.stringify(meta), 'utf8');
  const len = json.length + (isFault('ws-metadata-length-off-by-one') ? 1 : 0);
  return Buffer.concat([header(FRAME.PREVIEW_IMAGE_WITH_METADATA, len, isFault), json, png]);
}
