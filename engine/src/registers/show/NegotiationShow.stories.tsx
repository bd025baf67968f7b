import type { Meta, StoryObj } from '@storybook/react';
import { NegotiationShow } from './NegotiationShow';

const meta = { title: 'Cadastros/Negociação (visualizar)', component: NegotiationShow } satisfies Meta<typeof NegotiationShow>;
export default meta;
type Story = StoryObj<typeof meta>;

const pixel = (color: string) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="${color}"/></svg>`)}`;

/** Three photos, order and sheet links. */
export const WithPhotos: Story = {
  args: {
    record: {
      id: 'n1',
      displayName: 'Negociação Frota',
      photos: [{ src: pixel('#1976d2'), description: 'Frente' }, { src: pixel('#d32f2f'), description: 'Lateral' }, { src: pixel('#388e3c') }],
      order: { link: 'https://erp.exemplo.com/pedidos/123' },
      sheet: { link: 'https://erp.exemplo.com/fichas/123' },
    },
  },
};

/** No photos and no links yet. */
export const Empty: Story = {
  args: { record: { id: 'n2', displayName: 'Negociação Nova' } },
};
