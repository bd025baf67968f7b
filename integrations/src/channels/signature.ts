import { createHmac, timingSafeEqual } from 'node:crypto';

/** Constant-time comparison of two strings (false for different lengths). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `sha256=<hex>` of HMAC-SHA256(secret, exact raw bytes), as Meta sends in X-Hub-Signature-256. */
export function hubSignature(secret: string, rawBody: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}
