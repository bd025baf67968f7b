import type { Meta, StoryObj } from '@storybook/react';
import type { RegisterSchema } from '@atendimento/schemas/registers/index';
import { withShell } from '../stories/StoryShell';
import { storyUser } from '../stories/fixtures';
import { fakeIntegrationApi, IntegrationAdmin, storyIntegration } from './stories/IntegrationAdmin';

/** The orders schema every story here uses. */
function pedidosSchema(): RegisterSchema {
  return {
    type: 'object',
    required: ['numero', 'cliente'],
    properties: {
      cliente: { type: 'string', title: 'Cliente', order: 1, errorMessage: { required: 'Informe o cliente', default: 'Informe o cliente' } },
      numero: { type: 'string', title: 'Número', order: 0 },
      quantidade: { type: 'integer', title: 'Quantidade', minimum: 1, errorMessage: 'Informe uma quantidade maior que zero' },
    },
  };
}

/** An integration an admin defined: orders with a customer, a quantity and a note. */
const pedidos = storyIntegration({
  id: 'i1',
  name: 'Pedidos Express',
  register: 'pedidos',
  collection: 'pedidos',
  idField: 'numero',
  callToAction: [{ label: 'Pedido em PDF', method: 'POST', path: '/documentos/pedido', field: 'URL' }],
  active: true,
  menu: true,
  vjsfSchemaMaster: {
    type: 'object',
    required: ['numero', 'cliente'],
    properties: {
      cliente: { type: 'string', title: 'Cliente', order: 1, errorMessage: { required: 'Informe o cliente', default: 'Informe o cliente' } },
      numero: { type: 'string', title: 'Número', order: 0 },
      quantidade: { type: 'integer', title: 'Quantidade', minimum: 1, errorMessage: 'Informe uma quantidade maior que zero' },
    },
  },
});

const rows = [
  { id: '1001', numero: '1001', cliente: 'Padaria Pão de Mel', quantidade: 12, lifeControl: { createdAt: '2026-11-20T10:00:00.000Z', deletedAt: null } },
  { id: '1002', numero: '1002', cliente: 'Mercado Boa Vista', quantidade: 3, lifeControl: { createdAt: '2026-11-21T10:00:00.000Z', deletedAt: null } },
];

/** The server's check that the stories show (the browser test runs the real one). */
const validate = (body: Record<string, unknown>) => (body.cliente ? [] : [{ field: 'cliente', message: 'Informe o cliente' }]);

// An agent of the integration's department: no live subscription (that needs the integrations screen).
/** The ERP made the document: the server hands back a same-origin link to it. */
const documentMade = {
  'POST /api/integration/pedidos/1002/documents/*': { status: 201, body: { data: { status: 201, url: '/api/story-files/pedido-1002.pdf', fileName: 'pedido-1002.pdf', fileExt: 'pdf' } } },
  'GET /api/story-files/*': { body: '%PDF-1.4', headers: { 'Content-Type': 'application/pdf' } },
};
/** The ERP answered without a link. */
const documentMissing = { 'POST /api/integration/pedidos/1002/documents/*': { status: 200, body: { data: { status: 200, url: null, fileName: 'pedido-1002.pdf', fileExt: 'pdf' } } } };

const shell = (path: string, views = [pedidos], extra = {}) => ({ shell: { path, pattern: '/*', user: storyUser(), api: { ...fakeIntegrationApi(views, rows, validate), ...extra } } });

const meta = {
  title: 'Integrações/Telas geradas',
  component: IntegrationAdmin,
  decorators: [withShell],
  args: { path: '/integration/pedidos', views: [pedidos] },
  parameters: shell('/integration/pedidos'),
} satisfies Meta<typeof IntegrationAdmin>;
export default meta;
type Story = StoryObj<typeof meta>;

/** /{register} (here at the records' own path): the generic table over the integration's records. */
export const List: Story = {};

/** /integration/{collection}/create: the form generated from the schema, fields in `order`. */
export const Create: Story = { args: { path: '/integration/pedidos/create' }, parameters: shell('/integration/pedidos/create') };

/** /integration/{collection}/:id: a record in the generated form, with its call-to-action document. */
export const Edit: Story = { args: { path: '/integration/pedidos/1002' }, parameters: shell('/integration/pedidos/1002', [pedidos], documentMade) };

/** The ERP answered without a document link: 'Falha ao gerar o documento'. */
export const DocumentFailed: Story = { args: { path: '/integration/pedidos/1002' }, parameters: shell('/integration/pedidos/1002', [pedidos], documentMissing) };

/** The server gives this user no such integration (another department, adminOnly...). */
export const NotAllowed: Story = { args: { path: '/integration/pedidos/create', views: [pedidos] }, parameters: shell('/integration/pedidos/create', []) };

/** An integration with a noItems text and no records yet: the table says it. */
const semPedidos = storyIntegration({ id: 'i2', name: 'Pedidos Express', register: 'pedidos', collection: 'pedidos', noItems: 'Nenhum pedido ainda', vjsfSchemaMaster: pedidosSchema() });
export const EmptyList: Story = {
  args: { path: '/integration/pedidos', views: [semPedidos] },
  parameters: { shell: { path: '/integration/pedidos', pattern: '/*', user: storyUser(), api: fakeIntegrationApi([semPedidos], []) } },
};

/** vjsfSchemaItens: each record carries 'Produtos', a sub-form per item. */
const comItens = storyIntegration({
  id: 'i3',
  name: 'Pedidos Express',
  register: 'pedidos',
  collection: 'pedidos',
  vjsfSchemaMaster: pedidosSchema(),
  vjsfSchemaItens: { type: 'object', title: 'Produtos', required: ['produto'], properties: { produto: { type: 'string', title: 'Produto' }, quantidade: { type: 'integer', title: 'Qtd.' } } },
});
export const CreateWithItems: Story = { args: { path: '/integration/pedidos/create', views: [comItens] }, parameters: shell('/integration/pedidos/create', [comItens]) };

/** vjsfSchemaParams: the document asks its parameters first; the server checks them. */
const comParametros = storyIntegration({
  id: 'i4',
  name: 'Pedidos Express',
  register: 'pedidos',
  collection: 'pedidos',
  idField: 'numero',
  callToAction: [{ label: 'Pedido em PDF', method: 'POST', path: '/documentos/pedido', field: 'URL' }],
  vjsfSchemaMaster: pedidosSchema(),
  vjsfSchemaParams: { type: 'object', required: ['copias'], properties: { copias: { type: 'integer', title: 'Cópias' }, urgente: { type: 'boolean', title: 'Urgente' } } },
});
const paramsChecked = {
  ...documentMade,
  'POST /api/integration/pedidos/1002/documents/*': (call: { body: unknown }) => {
    const params = (call.body as { params?: { copias?: number } } | null)?.params;
    if (!params?.copias || params.copias < 1 || params.copias > 5) {
      return { status: 400, body: { error: 'validation_failed', errorMessage: 'Dados inválidos', fields: [{ field: 'copias', message: 'Informe de 1 a 5 cópias' }] } };
    }
    return documentMade['POST /api/integration/pedidos/1002/documents/*'];
  },
};
export const DocumentWithParams: Story = { args: { path: '/integration/pedidos/1002', views: [comParametros] }, parameters: shell('/integration/pedidos/1002', [comParametros], paramsChecked) };
