/**
 * Output with back-pressure: reports to stderr and canonical lines to stdout or a file, written
 * no faster than a slow reader (a pipe) takes them, so that nothing queues up in memory.
 *
 * @module
 */

import { once } from "node:events";
import { writeSync } from "node:fs";

/** Write to stderr, waiting while a slow reader (a pipe) has not taken the previous reports: a
 * million refused lines must not queue up in memory. */
export async function writeErr(text: string): Promise<void> {
  if (!process.stderr.write(text)) await once(process.stderr, "drain");
}

/** Write chunks to a file descriptor, or to stdout (`fd` null), in batches of about 1 MiB. */
export class Sink {
  private parts: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly fd: number | null) {}

  async write(buf: Uint8Array): Promise<void> {
    this.parts.push(buf);
    this.size += buf.length;
    if (this.size >= 1 << 20) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.size) return;
    const data = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    if (this.fd === null) {
      if (!process.stdout.write(data)) await once(process.stdout, "drain");
    } else {
      let off = 0;
      while (off < data.length) off += writeSync(this.fd, data, off);
    }
  }
}
