import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A customer's web site (loja.test) that embeds the widget of one web-chat channel, as a shop would. */
export interface CustomerSite {
  url: string;
  close(): Promise<void>;
}

/** Starts the shop page on loopback; its script tag loads `channelId`'s widget from the server at `serverBaseUrl` (host acme.test). */
export async function startCustomerSite(serverBaseUrl: string, channelId = 'site-suporte'): Promise<CustomerSite> {
  const port = new URL(serverBaseUrl).port;
  const site = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html><head><title>Loja</title></head><body><h1>Loja de exemplo</h1>
<script src="http://acme.test:${port}/api/webchat/${channelId}/widget.js" async></script></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://loja.test:${(site.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}
