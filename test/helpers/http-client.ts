/** Small helpers for the service tests: JSON/multipart requests with a key, and error-body assertions. */
import { expect } from 'vitest';

export interface Part {
  name: string;
  value?: string;
  file?: { name: string; data: Uint8Array<ArrayBuffer>; type?: string };
}

/** FormData keeps append order, so tests control the order of parts on the wire. */
export function form(parts: Part[]): FormData {
  const fd = new FormData();
  for (const p of parts) {
    if (p.file) fd.append(p.name, new Blob([p.file.data], { type: p.file.type ?? 'audio/wav' }), p.file.name);
    else fd.append(p.name, p.value ?? '');
  }
  return fd;
}

export function audio(bytes = 2000): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) data[i] = (i * 31) & 0xff;
  return data;
}

export class Client {
  constructor(readonly url: string, readonly key: string | null) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.key ? { authorization: `Bearer ${this.key}` } : {}), ...extra };
  }
  get(path: string, extra: Record<string, string> = {}): Promise<Response> {
    return fetch(this.url + path, { headers: this.headers(extra) });
  }
  postJson(path: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
    return fetch(this.url + path, { method: 'POST', headers: this.headers({ 'content-type': 'application/json', ...extra }), body: JSON.stringify(body) });
  }
  postForm(path: string, parts: Part[], extra: Record<string, string> = {}): Promise<Response> {
    return fetch(this.url + path, { method: 'POST', headers: this.headers(extra), body: form(parts) });
  }
  post(path: string, extra: Record<string, string> = {}, body?: string): Promise<Response> {
    return fetch(this.url + path, { method: 'POST', headers: this.headers(extra), ...(body !== undefined ? { body } : {}) });
  }
}

/** Asserts status + error code and returns the message. */
export async function expectError(response: Response | Promise<Response>, status: number, code: string): Promise<string> {
  const r = await response;
  const text = await r.text();
  let body: { error?: { code?: string; message?: string } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new Error(`expected a JSON error body, got ${r.status}: ${text.slice(0, 200)}`);
  }
  expect({ status: r.status, code: body.error?.code }, text).toEqual({ status, code });
  expect(typeof body.error?.message).toBe('string');
  return body.error!.message!;
}

export async function json<T = Record<string, unknown>>(response: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await response;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
}
