/** The tenant settings screen (docs/tenancy.md "Settings"). */
export const tenantSettings = {
  title: 'Configurações',
  intro: 'Valem para todos os usuários desta empresa assim que você salvar.',
  saved: 'Configurações salvas.',
  auditTitle: 'Histórico de alterações',
  auditEmpty: 'Nenhuma alteração registrada.',
  auditWhen: 'Quando',
  auditWho: 'Quem',
  auditField: 'Configuração',
  auditBefore: 'Antes',
  auditAfter: 'Depois',
} as const;
