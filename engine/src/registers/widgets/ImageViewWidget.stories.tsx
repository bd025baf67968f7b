import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import { WidgetHarness } from './WidgetHarness';

const meta = { title: 'Cadastros/Widgets/Imagem', component: WidgetHarness, decorators: [withShell] } satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

const QR = 'data:image/svg+xml;utf8,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"><rect width="120" height="120" fill="white"/><rect x="10" y="10" width="30" height="30"/><rect x="80" y="10" width="30" height="30"/><rect x="10" y="80" width="30" height="30"/></svg>');

/** A generated QR code (read-only) with 'Copiar link' and 'Baixar'. */
export const QrCode: Story = {
  args: {
    schema: { type: 'object', properties: { qrcodeUrl: { type: 'string', title: 'QR Code' } } },
    uiSchema: { qrcodeUrl: { 'ui:widget': 'imageView' } },
    formData: { qrcodeUrl: QR },
  },
};

/** Nothing generated yet: 'Sem imagem'. */
export const NoImage: Story = {
  args: { ...QrCode.args, formData: {} },
};
