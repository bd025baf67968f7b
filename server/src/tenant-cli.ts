import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { systemClock } from './clock';
import { createLogger } from './logger';
import { closeDb, createDb, migrate } from './db/knex';
import { createTenantRepository } from './db/repositories/tenant-repository';
import { createUserRepository } from './db/repositories/user-repository';
import { createBlobStore } from './services/files/blob-store';
import { createMailer, type Mailer } from './services/mail/mailer';
import { startSmtpCatcher } from './services/mail/smtp-catcher';
import { createChangeFeed } from './services/changes/change-feed';
import { createBus } from './services/changes/create-bus';
import { createAuth } from './services/auth';
import { createTenantAdmin, TenantCommandError } from './services/tenants/tenant-admin-service';

const USAGE = `Uso: npm run tenant -- <comando> [opções]

  create  --host atendimento.cliente.com.br --name "Cliente" --admin ana@cliente.com.br [--id cliente] [--url https://atendimento.cliente.com.br]
          cria a empresa com a configuração padrão e envia ao administrador um link de acesso
  list    lista as empresas, seus hosts e se estão ativas
  disable <id|host>   desativa: todas as telas e chamadas respondem 'Acesso Desabilitado.' (403)
  enable  <id|host>   reativa
  add-host <id|host> --host outro.cliente.com.br   acrescenta um host à empresa

Usa o mesmo banco do servidor (DATABASE_URL / DATA_DIR) e o mesmo BUS, para que os outros
processos vejam a mudança na hora (docs/tenancy.md).`;

/** `npm run tenant -- ...` (docs/tenancy.md "Tenants: the command"). */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { host: { type: 'string' }, name: { type: 'string' }, admin: { type: 'string' }, id: { type: 'string' }, url: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, target] = positionals;
  if (!command || values.help) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 1;
  }
  const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env });
  const logger = createLogger(config.logLevel);
  const db = createDb(config);
  let catcher: Awaited<ReturnType<typeof startSmtpCatcher>> | null = null;
  let mailer: Mailer | null = null;
  const bus = await (async () => {
    await migrate(db, config.databaseSchema);
    return createBus(config, db, logger);
  })();
  const changes = createChangeFeed({ db, bus, clock: systemClock, logger });
  try {
    const tenants = createTenantRepository(db);
    const users = createUserRepository(db);
    const admin = createTenantAdmin({
      tenants,
      users,
      changes,
      clock: systemClock,
      async sendSignInLink(tenant, userId, host) {
        if (!config.smtpUrl) catcher = await startSmtpCatcher({ port: 0, dir: path.join(config.dataDir, 'mail') });
        mailer = createMailer(config.smtpUrl ?? catcher!.url, config.mailFrom, logger);
        // Links point at the tenant's own host, not at PUBLIC_URL (another tenant's address).
        const publicUrl = (values.url ?? `https://${host}`).replace(/\/$/, '');
        const auth = createAuth({ db, users, config: { ...config, publicUrl }, mailer, clock: systemClock, logger, blobs: createBlobStore(path.join(config.dataDir, 'blobs')) });
        await auth.service.sendSignInLink(tenant, userId);
      },
    });
    const out = (line: string) => process.stdout.write(`${line}\n`);
    switch (command) {
      case 'create': {
        const { tenant } = await admin.create({ host: values.host, name: values.name, admin: values.admin, id: values.id });
        out(`Empresa criada: ${tenant.id} (${tenant.name}) em ${values.host}`);
        out(`Link de acesso enviado para ${values.admin}${catcher ? ` (sem SMTP_URL: e-mail salvo em ${path.join(config.dataDir, 'mail')}/)` : ''}.`);
        return 0;
      }
      case 'list': {
        for (const t of await admin.list()) out(`${t.id}\t${t.active ? 'ativa' : 'desativada'}\t${t.name}\t${t.hosts.join(', ') || '(sem host)'}`);
        return 0;
      }
      case 'disable':
      case 'enable': {
        if (!target) throw new TenantCommandError(`Informe a empresa: npm run tenant -- ${command} <id|host>.`);
        const tenant = await admin.setActive(target, command === 'enable');
        out(`Empresa ${tenant.id} ${command === 'enable' ? 'reativada' : 'desativada'}.`);
        return 0;
      }
      case 'add-host': {
        if (!target) throw new TenantCommandError('Informe a empresa: npm run tenant -- add-host <id|host> --host novo.host.');
        const tenant = await admin.addHost(target, values.host ?? '');
        out(`Host ${values.host} acrescentado à empresa ${tenant.id}.`);
        return 0;
      }
      default:
        process.stderr.write(`Comando desconhecido: ${command}\n\n${USAGE}\n`);
        return 1;
    }
  } catch (error) {
    if (error instanceof TenantCommandError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    changes.close();
    await bus.close();
    (mailer as Mailer | null)?.close();
    await (catcher as Awaited<ReturnType<typeof startSmtpCatcher>> | null)?.close();
    await closeDb(db);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`npm run tenant: ${error.message}\n`);
    process.exit(1);
  },
);
