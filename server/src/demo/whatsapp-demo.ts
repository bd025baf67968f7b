import { randomBytes } from 'node:crypto';
import { startMetaGraphServer, type MetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import type { Db } from '../db/knex';
import { createChannelProviderRepository } from '../db/repositories/channel-provider-repository';

/** The demo tenant's WhatsApp channel (seed-demo.ts). */
export const DEMO_WHATSAPP_CHANNEL = 'whatsapp-comercial';

/**
 * `npm start` only: a local Meta-Graph-shaped server on loopback, with a customer page at
 * /cliente. Started BEFORE the app server so its host:port can be trusted by the outbound
 * client (PROVIDER_TRUSTED_HOSTS semantics); DEMO_WHATSAPP=false turns it off.
 */
export interface DemoGraph {
  graph: MetaGraphServer;
  appSecret: string;
  accessToken: string;
}

export async function startDemoGraph(port = Number(process.env.DEMO_WHATSAPP_PORT ?? 0)): Promise<DemoGraph> {
  const appSecret = randomBytes(24).toString('hex');
  const accessToken = randomBytes(24).toString('hex');
  const graph = await startMetaGraphServer({
    port,
    appSecret,
    accessToken,
    phoneNumberId: 'demo-phone-number',
    businessAccountId: 'demo-waba',
    displayPhoneNumber: '5511999990000',
    statusDelayMs: 700,
    customerPage: true,
  });
  return { graph, appSecret, accessToken };
}

/**
 * Points the demo channel at the local server and the server's webhooks at us. Only a channel
 * without provider settings, or with settings this function wrote (`demo: true`), is touched:
 * a real configuration is never overwritten. Answers false when nothing was wired.
 */
export async function wireDemoWhatsapp(db: Db, tenantId: string, demo: DemoGraph, appPort: number): Promise<boolean> {
  const { graph } = demo;
  const channels = createChannelProviderRepository(db);
  const found = await channels.settings(tenantId, DEMO_WHATSAPP_CHANNEL);
  if (!found) return false;
  const current = found.settings as { demo?: boolean } | null;
  if (current && !current.demo) return false;
  const provider = {
    demo: true, baseUrl: graph.baseUrl, apiVersion: 'v21.0', phoneNumberId: 'demo-phone-number', businessAccountId: 'demo-waba',
    accessToken: demo.accessToken, appSecret: demo.appSecret, verifyToken: randomBytes(12).toString('hex'),
  };
  await channels.saveSettings(tenantId, DEMO_WHATSAPP_CHANNEL, provider);
  graph.setWebhookUrl(`http://127.0.0.1:${appPort}/api/webhooks/whatsapp/${DEMO_WHATSAPP_CHANNEL}`);
  return true;
}
