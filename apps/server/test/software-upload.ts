import { randomBytes } from 'node:crypto';
import { SoftwarePackageSchema } from '@forecourt/contract/software';
import type { TestApp } from './helper.ts';

/** A multipart/form-data body: text fields, then `file` (when given) as application/octet-stream. */
export function multipartBody(fields: Record<string, string>, file?: Buffer, fileField = 'file') {
  const boundary = `----forecourt${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="package.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** `POST /api/software/` as the user of `token`. */
export function postPackage(t: TestApp, token: string, fields: Record<string, string>, file?: Buffer) {
  const body = multipartBody(fields, file);
  return t.as(token, {
    method: 'POST',
    url: '/api/software/',
    payload: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

/** Uploads a package and answers it (the test fails on anything but 201). */
export async function uploadPackage(t: TestApp, token: string, version: string, file = randomBytes(4096)) {
  const res = await postPackage(t, token, { name: `Firmware ${version}`, version, kind: 'software' }, file);
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return SoftwarePackageSchema.parse(res.json());
}
