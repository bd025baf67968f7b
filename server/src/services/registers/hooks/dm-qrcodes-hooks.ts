import QRCode from 'qrcode';
import { messages } from '@atendimento/schemas';
import { validationError } from '../../../errors';
import type { RegisterLookups } from '../../../db/repositories/register-lookups';
import type { BlobStore } from '../../files/blob-store';
import type { RegisterHooks } from '../register-hooks';

/** The wa.me link a direct-message QR code opens: the channel's number and the prefilled text. */
function waMeLink(phoneNumber: string, message: string): string {
  return `https://wa.me/${phoneNumber.replace(/\D/g, '')}?text=${encodeURIComponent(message)}`;
}

/**
 * Direct-message QR codes (seed 000 §3, §5): only channels of kind meta are accepted; the
 * image is generated here (PNG or SVG, with the `qrcode` package) whenever the message, the
 * type or the channel changes, stored in the blob store, and its URL saved in qr_image_url.
 */
export function dmQrcodesHooks(deps: { lookups: RegisterLookups; blobs: BlobStore }): RegisterHooks {
  return {
    async beforeWrite(ctx, next, previous) {
      const channel = await deps.lookups.channel(ctx.tenant.id, String(next.channelId), ctx.trx);
      if (!channel || channel.type !== 'meta' || !channel.phoneNumber) {
        throw validationError([{ field: 'channelId', message: messages.registers.channelNotMeta }]);
      }
      next.phoneNumber = channel.phoneNumber;
      const unchanged =
        previous?.qr_image_url &&
        previous.prefilled_message === next.prefilled_message &&
        previous.generate_qr_image === next.generate_qr_image &&
        previous.channelId === next.channelId;
      if (unchanged) {
        next.qr_image_url = previous.qr_image_url;
        return;
      }
      const link = waMeLink(channel.phoneNumber, String(next.prefilled_message));
      const stored =
        next.generate_qr_image === 'SVG'
          ? await deps.blobs.put(ctx.tenant.id, Buffer.from(await QRCode.toString(link, { type: 'svg', margin: 2, width: 512 }), 'utf8'), 'svg')
          : await deps.blobs.put(ctx.tenant.id, await QRCode.toBuffer(link, { type: 'png', margin: 2, width: 512 }), 'png');
      next.qr_image_url = stored.url;
    },
  };
}
