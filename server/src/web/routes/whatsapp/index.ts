import type { Whatsapp } from '../../../services/whatsapp';
import type { ApiRegistry } from '../../access';
import { registerMediaRoutes } from './media-routes';
import { registerOutboundRoutes } from './outbound-routes';
import { registerTemplateRoutes } from './template-routes';
import { registerWebhookRoutes } from './webhook-routes';

/** Provider channels' webhooks and the WhatsApp calls (docs/whatsapp.md, docs/channels.md). */
export function registerWhatsappRoutes(api: ApiRegistry, whatsapp: Whatsapp): void {
  registerOutboundRoutes(api, whatsapp);
  registerWebhookRoutes(api, whatsapp);
  registerTemplateRoutes(api, whatsapp);
  registerMediaRoutes(api, whatsapp);
}
