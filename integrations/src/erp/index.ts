export * from './erp-protocol';
export * from './erp-client';
export { ErpSqlError, parseFilter, parseOrder, parseSelect } from './erp-sql';
export { cpfFrom, cnpjFrom, isValidCgc, generateErpTables, ERP_ENDPOINTS, type ErpRow, type ErpTables } from './erp-data';
export { startLocalErp, type LocalErp, type LocalErpOptions, type ErpRequestLog } from './local-erp-server';
