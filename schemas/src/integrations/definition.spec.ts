import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { INTEGRATION_MESSAGES, integrationRegister, integrationSchema, mayUseIntegration, objectSchemaOrNull, orderedFields, type IntegrationDefinition } from './definition';
import { newItemTitle, parseDefinition } from '../registers/index';

const base: IntegrationDefinition = {
  id: 'i1',
  name: 'Pedidos',
  register: 'pedidos',
  collection: 'pedidos',
  orderBy: 'total',
  tableHeaders: { columnsTranslations: { cliente: 'Cliente (ERP)' } },
  vjsfSchemaMaster: {
    type: 'object',
    properties: {
      obs: { type: 'string', title: 'Observação' },
      total: { type: 'number', title: 'Total', order: 2 },
      cliente: { type: 'string', title: 'Cliente', order: 1 },
      itens: { type: 'array', items: { type: 'string' } },
      pago: { type: 'boolean', title: 'Pago' },
    },
  },
};

describe('integrationRegister', () => {
  it('orders fields by `order`, then as written, and builds the list from the scalar fields', () => {
    expect(orderedFields(base.vjsfSchemaMaster!)).toEqual(['cliente', 'total', 'obs', 'itens', 'pago']);
    const register = integrationRegister(base);
    expect(register.uiSchema['ui:order']).toEqual(['cliente', 'total', 'obs', 'itens', 'pago', '*']);
    expect(register.list).toMatchObject({ name: 'pedidos', route: '/pedidos', label: 'Pedidos', titleField: 'cliente', sort: { field: 'total', order: 'ASC' } });
    expect(register.list.columns).toEqual([
      { field: 'cliente', label: 'Cliente (ERP)' },
      { field: 'total', type: 'number' },
      { field: 'obs' },
      { field: 'pago', type: 'boolean' },
    ]);
  });

  it('the create form is titled from a singular: the item title (with its gender), else "registro de" the list title', () => {
    expect(newItemTitle(integrationRegister({ ...base, name: 'Equipamentos X' }).list)).toBe('Novo registro de Equipamentos X');
    expect(newItemTitle(integrationRegister({ ...base, listTitle: 'Notas Fiscais', listItemTitle: 'Nota Fiscal' }).list)).toBe('Nova Nota Fiscal');
    expect(newItemTitle(integrationRegister({ ...base, listItemTitle: 'Equipamento' }).list)).toBe('Novo Equipamento');
    expect(newItemTitle(integrationRegister({ ...base, listItemTitle: 'Solicitação de compra' }).list)).toBe('Nova Solicitação de compra');
    expect(newItemTitle(integrationRegister({ ...base, listItemTitle: 'Sistema' }).list)).toBe('Novo Sistema');
  });

  it("the integrations register itself is feminine: 'Nova Integração'", () => {
    const list = parseDefinition('integrations', {
      schema: JSON.parse(readFileSync(new URL('../../registers/integrations/schema.json', import.meta.url), 'utf8')),
      list: JSON.parse(readFileSync(new URL('../../registers/integrations/list.json', import.meta.url), 'utf8')),
    }).list;
    expect(newItemTitle(list)).toBe('Nova Integração');
  });

  it('refuses a schema that is not an object with properties, or has nothing to title a row', () => {
    expect(() => integrationRegister({ ...base, vjsfSchemaMaster: { type: 'array' } })).toThrow(/"type": "object"/);
    expect(() => integrationRegister({ ...base, vjsfSchemaMaster: { type: 'object', properties: {} } })).toThrow(INTEGRATION_MESSAGES.schemaNoFields);
    expect(() => integrationRegister({ ...base, vjsfSchemaMaster: { type: 'object', properties: { itens: { type: 'array' } } } })).toThrow();
  });
});

describe('mayUseIntegration (seed 000 §6)', () => {
  const agent = { id: 'u1', claims: {} };
  it('lets admins see everything, even inactive ones, but nobody a deleted one', () => {
    const admin = { id: 'a', claims: { admin: true } };
    expect(mayUseIntegration({ ...base, active: false, adminOnly: true, departments: ['x'] }, admin, [])).toBe(true);
    expect(mayUseIntegration({ ...base, lifeControl: { deletedAt: '2026-01-01T00:00:00.000Z' } }, admin, [])).toBe(false);
  });

  it('shows others active integrations without departments or of their departments', () => {
    expect(mayUseIntegration(base, agent, [])).toBe(true);
    expect(mayUseIntegration({ ...base, active: false }, agent, [])).toBe(false);
    expect(mayUseIntegration({ ...base, departments: ['vendas'] }, agent, ['suporte'])).toBe(false);
    expect(mayUseIntegration({ ...base, departments: ['vendas'] }, agent, ['vendas'])).toBe(true);
  });

  it('opens adminOnly integrations only with their claim in claimsIntegrations', () => {
    const restricted = { ...base, adminOnly: true };
    expect(mayUseIntegration(restricted, agent, [])).toBe(false);
    expect(mayUseIntegration(restricted, { ...agent, claimsIntegrations: { pedidos: true } }, [])).toBe(true);
    expect(mayUseIntegration(restricted, { ...agent, claimsIntegrations: ['pedidos'] }, [])).toBe(true);
    expect(mayUseIntegration(restricted, { ...agent, claimsIntegrations: { outra: true } }, [])).toBe(false);
  });
});

describe('integrationSchema (vjsfSchemaItens)', () => {
  const master = { type: 'object', properties: { numero: { type: 'string', order: 3 } } } as const;
  const items = { type: 'object', title: 'Produtos', properties: { produto: { type: 'string' } } } as const;

  it('adds an itens array of the items schema after the master fields, titled by it', () => {
    const schema = integrationSchema({ ...base, vjsfSchemaMaster: { ...master }, vjsfSchemaItens: { ...items } });
    expect(schema.properties!.itens).toEqual({ type: 'array', title: 'Produtos', items: { type: 'object', properties: { produto: { type: 'string' } } }, order: 4 });
    expect(integrationRegister({ ...base, vjsfSchemaMaster: { ...master }, vjsfSchemaItens: { ...items } }).schema.properties!.itens).toBeDefined();
  });

  it('leaves the master alone when the items schema is empty or the master has its own itens', () => {
    expect(integrationSchema({ ...base, vjsfSchemaMaster: { ...master }, vjsfSchemaItens: { type: 'object', properties: {} } }).properties!.itens).toBeUndefined();
    expect(integrationSchema({ ...base, vjsfSchemaItens: { ...items } }).properties!.itens).toEqual({ type: 'array', items: { type: 'string' } });
    expect(objectSchemaOrNull(null)).toBeNull();
    expect(objectSchemaOrNull({ type: 'array' })).toBeNull();
  });
});

describe('mayUseIntegration with hideIntegrations departments', () => {
  const agent = { id: 'u1', claims: {} };
  it('hides general integrations from users of a hiding department, department ones unless through another department', () => {
    expect(mayUseIntegration({ ...base }, agent, ['vendas'], ['vendas'])).toBe(false);
    expect(mayUseIntegration({ ...base }, agent, ['vendas'], [])).toBe(true);
    expect(mayUseIntegration({ ...base, departments: ['vendas'] }, agent, ['vendas', 'suporte'], ['vendas'])).toBe(false);
    expect(mayUseIntegration({ ...base, departments: ['vendas', 'suporte'] }, agent, ['vendas', 'suporte'], ['vendas'])).toBe(true);
    expect(mayUseIntegration({ ...base }, { id: 'a', claims: { admin: true } }, ['vendas'], ['vendas'])).toBe(true);
  });
});
