import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import type { FakeCall } from '../../stories/fakeApi';
import { WidgetHarness } from './WidgetHarness';

/** POST /api/upload: an image answers imageUrl, anything else documentUrl. */
function upload(call: FakeCall) {
  const file = (call.body as FormData).get('file') as File;
  const url = `/files/acme/${file.name}`;
  return { status: 201, body: { data: { file: /\.(png|jpe?g)$/i.test(file.name) ? { imageUrl: url } : { documentUrl: url } } } };
}

const meta = {
  title: 'Cadastros/Widgets/Arquivo',
  component: WidgetHarness,
  decorators: [withShell],
  parameters: { shell: { api: { 'POST /api/upload': upload } } },
} satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A FAQ answer's attachment: any accepted file, kept as its URL. */
export const AnyFile: Story = {
  args: {
    schema: { type: 'object', properties: { anex: { type: 'string', title: 'Anexo' } } },
    uiSchema: { anex: { 'ui:widget': 'file' } },
  },
};

/** A stored photo with its preview (`accept: 'image'`, `preview`). */
export const Photo: Story = {
  args: {
    schema: { type: 'object', properties: { photo: { type: 'string', title: 'Foto' } } },
    uiSchema: { photo: { 'ui:widget': 'file', 'ui:options': { accept: 'image', preview: true } } },
    formData: { photo: '/files/acme/loja.png' },
  },
};

/** The PDF uploader: anything else is refused before upload ('Envie um arquivo PDF.'). */
export const Pdf: Story = {
  args: {
    schema: { type: 'object', properties: { catalog: { type: 'string', title: 'Catálogo' } } },
    uiSchema: { catalog: { 'ui:widget': 'pdf' } },
  },
};

/** The server refuses the file: its message shows under the field. */
export const Refused: Story = {
  args: AnyFile.args,
  parameters: { shell: { api: { 'POST /api/upload': { status: 400, body: { error: 'upload_type', errorMessage: 'Tipo de arquivo não permitido.' } } } } },
};
