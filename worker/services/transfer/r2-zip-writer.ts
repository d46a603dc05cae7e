import { strToU8, Zip, ZipDeflate } from 'fflate';

/** R2 wants every multipart part but the last of one size (at least 5 MiB). */
const UPLOAD_PART = 5 * 1024 * 1024;

/** A ZIP written to R2 as it is produced: fflate's streaming Zip into a multipart upload. */
export class R2ZipWriter {
  private zip: Zip;
  private chunks: Uint8Array[] = [];
  private size = 0;
  private upload: R2MultipartUpload | null = null;
  private parts: R2UploadedPart[] = [];
  private error: Error | null = null;

  constructor(
    private bucket: R2Bucket,
    private key: string,
  ) {
    this.zip = new Zip((err, data) => {
      if (err) this.error = err;
      else if (data.length) {
        this.chunks.push(data);
        this.size += data.length;
      }
    });
  }

  async add(name: string, data: string | Uint8Array): Promise<void> {
    const file = new ZipDeflate(name, { level: 6 });
    this.zip.add(file);
    file.push(typeof data === 'string' ? strToU8(data) : data, true);
    if (this.error) throw this.error;
    while (this.size >= UPLOAD_PART) await this.sendPart(this.take(UPLOAD_PART));
  }

  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const head = this.chunks[0];
      const need = n - filled;
      if (head.length <= need) {
        out.set(head, filled);
        filled += head.length;
        this.chunks.shift();
      } else {
        out.set(head.subarray(0, need), filled);
        this.chunks[0] = head.subarray(need);
        filled += need;
      }
    }
    this.size -= n;
    return out;
  }

  private async sendPart(bytes: Uint8Array) {
    this.upload ??= await this.bucket.createMultipartUpload(this.key, {
      httpMetadata: { contentType: 'application/zip' },
    });
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, bytes));
  }

  async close(): Promise<void> {
    this.zip.end();
    if (this.error) throw this.error;
    const rest = this.take(this.size);
    if (!this.upload) {
      await this.bucket.put(this.key, rest, { httpMetadata: { contentType: 'application/zip' } });
      return;
    }
    if (rest.length) await this.sendPart(rest);
    await this.upload.complete(this.parts);
  }

  async abort(): Promise<void> {
    await this.upload?.abort().catch(() => undefined);
  }
}
