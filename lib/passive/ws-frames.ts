// Reads WebSocket messages (RFC 6455 § 5) out of the bytes that pass a proxy in one
// direction, without touching them: the proxy forwards every byte as it came and hands
// a copy here. Control frames (ping, pong, close) are not messages and are skipped;
// fragmented messages are joined. A frame compressed by an extension (RSV1 set,
// permessage-deflate) cannot be read without the connection's inflater: the reader says
// so once and the connection's messages are not judged.

export interface WsMessage {
  binary: boolean;
  data: Buffer;
}

export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentBinary = false;
  /** Set when the stream could not be read (compressed frames, a broken header): why. */
  unreadable: string | undefined;

  constructor(private readonly maxMessageBytes = 32 * 1024 * 1024) {}

  /** The messages completed by this chunk, in order. */
  push(chunk: Buffer): WsMessage[] {
    if (this.unreadable) return [];
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const out: WsMessage[] = [];
    for (;;) {
      const b = this.buffered;
      if (b.length < 2) break;
      const fin = (b[0] & 0x80) !== 0;
      const rsv1 = (b[0] & 0x40) !== 0;
      const opcode = b[0] & 0x0f;
      const masked = (b[1] & 0x80) !== 0;
      let length = b[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (b.length < 4) break;
        length = b.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (b.length < 10) break;
        const big = b.readBigUInt64BE(2);
        if (big > BigInt(this.maxMessageBytes))
          return this.fail(`a frame of ${big} bytes, over the ${this.maxMessageBytes} the observer reads`, out);
        length = Number(big);
        offset = 10;
      }
      const maskAt = offset;
      if (masked) offset += 4;
      if (b.length < offset + length) break;
      let payload = b.subarray(offset, offset + length);
      if (masked) {
        const mask = b.subarray(maskAt, maskAt + 4);
        payload = Buffer.from(payload);
        for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
      }
      this.buffered = b.subarray(offset + length);
      if (opcode >= 0x8) continue; // close, ping, pong
      if (rsv1)
        return this.fail(
          "its frames are compressed (permessage-deflate), which an observer cannot read without the connection's own inflater",
          out,
        );
      if (opcode === 0x1 || opcode === 0x2) {
        this.fragments = [payload];
        this.fragmentBinary = opcode === 0x2;
      } else if (opcode === 0x0) {
        this.fragments.push(payload);
      } else {
        return this.fail(`a frame with the reserved opcode ${opcode}`, out);
      }
      if (fin) {
        out.push({
          binary: this.fragmentBinary,
          data: this.fragments.length === 1 ? Buffer.from(this.fragments[0]) : Buffer.concat(this.fragments),
        });
        this.fragments = [];
      }
    }
    return out;
  }

  private fail(why: string, out: WsMessage[]): WsMessage[] {
    this.unreadable = why;
    this.buffered = Buffer.alloc(0);
    return out;
  }
}
