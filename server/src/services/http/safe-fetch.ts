import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Readable } from 'node:stream';

/**
 * The one HTTP client for every outbound call (ERP proxy, call-to-action documents, channel
 * providers, webhooks, media). It refuses loopback, private, link-local, CGNAT, multicast and
 * metadata addresses AFTER DNS resolution (the check runs in the socket's lookup, so a name
 * that resolves differently between check and connect cannot slip through) and on every
 * redirect hop, unless the exact host:port was configured as trusted (the local ERP and
 * provider servers of the demo and the tests).
 */

const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  blocked.addSubnet(net6, prefix, 'ipv6');
}

/** True when an IP literal is one we never call (IPv4-mapped IPv6 is checked as IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1]!, 16);
    const lo = parseInt(hexMapped[2]!, 16);
    return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  const family = net.isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) return blocked.check(bare, 'ipv6');
  return true;
}

/**
 * Cloud metadata services: refused even when configured as trusted, because no legitimate
 * ERP, provider or webhook lives there and reaching one leaks the machine's credentials.
 */
const metadata = new net.BlockList();
metadata.addSubnet('169.254.0.0', 16, 'ipv4');
metadata.addAddress('100.100.100.200', 'ipv4');
metadata.addSubnet('fe80::', 10, 'ipv6');
metadata.addAddress('fd00:ec2::254', 'ipv6');

/** True for link-local and cloud metadata addresses (never callable, trusted or not). */
function isMetadataAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return metadata.check(mapped[1]!, 'ipv4');
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1]!, 16);
    const lo = parseInt(hexMapped[2]!, 16);
    return metadata.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  const family = net.isIP(bare);
  return family === 4 ? metadata.check(bare, 'ipv4') : family === 6 ? metadata.check(bare, 'ipv6') : false;
}

/** The `host:port` key a trusted-host list uses for a URL ('http://127.0.0.1:5010/rest' → '127.0.0.1:5010'). */
export function trustedHostOf(url: string | URL): string {
  return hostKey(typeof url === 'string' ? new URL(url) : url);
}

export class ForbiddenTargetError extends Error {
  readonly code = 'forbidden_target';
  constructor(readonly target: string) {
    super(`safeFetch: refusing to call ${target} (private, loopback or metadata address). Configure it as a trusted host if it is yours.`);
  }
}

interface SafeFetchOptions {
  /** host:port pairs allowed even when they resolve to private addresses. */
  trustedHosts?: string[];
  maxRedirects?: number;
  /** Overall timeout per request, ms. */
  timeoutMs?: number;
}

function hostKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${port}`;
}

/** A fetch-compatible function with the SSRF rules above. */
export function createSafeFetch(options: SafeFetchOptions = {}): typeof fetch {
  const trusted = new Set((options.trustedHosts ?? []).map((h) => h.toLowerCase()));
  const maxRedirects = options.maxRedirects ?? 5;

  const guardedLookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return (callback as any)(error);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isForbiddenAddress(a.address));
      if (bad || list.length === 0) return (callback as any)(new ForbiddenTargetError(`${hostname} (${bad?.address ?? 'sem endereço'})`));
      if ((lookupOptions as dns.LookupOptions).all) return (callback as any)(null, list);
      (callback as any)(null, list[0]!.address, list[0]!.family);
    });
  };

  async function once(url: URL, init: RequestInit, body: Buffer | undefined): Promise<http.IncomingMessage> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ForbiddenTargetError(url.href);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(literal) && isMetadataAddress(literal)) throw new ForbiddenTargetError(url.href);
    const isTrusted = trusted.has(hostKey(url));
    if (!isTrusted && (net.isIP(literal) ? isForbiddenAddress(literal) : literal === 'localhost' || literal.endsWith('.localhost'))) {
      throw new ForbiddenTargetError(url.href);
    }
    const headers = new Headers(init.headers);
    const outHeaders: Record<string, string> = {};
    headers.forEach((value, key) => (outHeaders[key] = value));
    if (body) outHeaders['content-length'] = String(body.length);
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(url, { method: init.method ?? 'GET', headers: outHeaders, lookup: isTrusted ? undefined : guardedLookup, signal: init.signal ?? undefined }, resolve);
      req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`safeFetch: ${url.host} did not answer in time`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  return async function safeFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    let url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    let body = init.body === undefined || init.body === null ? undefined : Buffer.from(typeof init.body === 'string' ? init.body : new Uint8Array(init.body as ArrayBuffer));
    let current = init;
    for (let hop = 0; ; hop++) {
      const res = await once(url, current, body);
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location && init.redirect !== 'manual') {
        res.resume();
        if (hop >= maxRedirects) throw new Error(`safeFetch: more than ${maxRedirects} redirects from ${url.href}`);
        url = new URL(res.headers.location, url);
        if (status === 303 || ((status === 301 || status === 302) && current.method === 'POST')) {
          current = { ...current, method: 'GET' };
          body = undefined;
        }
        continue;
      }
      const headers = new Headers();
      for (const [key, value] of Object.entries(res.headers)) {
        if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
        else if (value !== undefined) headers.set(key, value);
      }
      const stream = status === 204 || status === 304 || current.method === 'HEAD' ? null : (Readable.toWeb(res) as ReadableStream);
      const response = new Response(stream, { status, statusText: res.statusMessage, headers });
      Object.defineProperty(response, 'url', { value: url.href });
      return response;
    }
  } as typeof fetch;
}
