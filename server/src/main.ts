import path from 'node:path';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { createServer } from './server';
import { seedDemo, DEMO_ACCOUNTS } from './demo/seed-demo';
import { startSmtpCatcher } from './services/mail/smtp-catcher';
import { createMailer } from './services/mail/mailer';
import { startDemoGraph, wireDemoWhatsapp } from './demo/whatsapp-demo';
import { DEMO_MAIL_ADDRESS, startDemoMail, wireDemoMail } from './demo/mail-demo';

/** `npm start`: migrate, seed the demo tenant once, serve the app and print how to sign in. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  let mailNote = `SMTP: ${config.smtpUrl}`;
  let catcher: Awaited<ReturnType<typeof startSmtpCatcher>> | null = null;
  // Demo mailbox (docs/email.md): a local dovecot when installed; mail sent through the local
  // SMTP server to its address lands in it, as a customer's would.
  const demoMail = process.env.DEMO_MAIL === 'false' ? null : await startDemoMail(config.dataDir).catch((err) => (logger.warn({ err }, 'demo.mail_failed'), null));
  if (!config.smtpUrl) {
    const dir = path.join(config.dataDir, 'mail');
    catcher = await startSmtpCatcher({
      port: Number(process.env.SMTP_CATCHER_PORT ?? 0),
      dir,
      onMail: (mail) => {
        if (demoMail && mail.to.includes(DEMO_MAIL_ADDRESS)) void demoMail.imap.append(demoMail.user, mail.raw).catch((err) => logger.warn({ err }, 'demo.mail_append_failed'));
      },
    });
    mailNote = `E-mails (links de acesso, recuperação de senha) ficam em ${path.relative(process.cwd(), dir) || dir}/ (servidor SMTP local em ${catcher.url})`;
  }
  const mailer = createMailer(config.smtpUrl ?? catcher!.url, config.mailFrom, logger);
  // Demo WhatsApp (docs/whatsapp.md): a local Meta-shaped server, trusted by host:port only.
  const demoWhatsapp = process.env.DEMO_WHATSAPP === 'false' ? null : await startDemoGraph().catch((err) => (logger.warn({ err }, 'demo.whatsapp_failed'), null));
  if (demoWhatsapp) config.providerTrustedHosts = [...config.providerTrustedHosts, new URL(demoWhatsapp.graph.baseUrl).host];
  const server = await createServer({ config, logger, mailer });
  const created = await seedDemo(server.db, { tenantId: config.defaultTenant });
  const url = await server.listen();
  const appPort = (server.httpServer.address() as { port: number }).port;
  const syncTemplates = (tenantId: string) => server.services.whatsapp.templates.sync(tenantId).catch((err) => logger.warn({ err }, 'demo.whatsapp_templates_failed'));
  const whatsappWired = demoWhatsapp ? await wireDemoWhatsapp(server.db, config.defaultTenant, demoWhatsapp, appPort, syncTemplates) : false;
  const mailWired = demoMail && catcher ? await wireDemoMail(server.db, config.defaultTenant, demoMail, catcher.port).catch((err) => (logger.warn({ err }, 'demo.mail_failed'), false)) : false;
  if (mailWired) await server.services.mail.refresh();

  const lines = [
    '',
    '  Atendimento está no ar.',
    `  Abra ${config.publicUrl === `http://localhost:${config.port}` ? url : config.publicUrl}`,
    `  Banco: ${config.databaseUrl ? 'PostgreSQL' : config.sqliteFile}${created ? ' (empresa de demonstração criada agora)' : ''}`,
    '',
    '  Contas de demonstração:',
    ...DEMO_ACCOUNTS.map((a) => `    ${a.role.padEnd(11)} ${a.email.padEnd(28)} senha: ${a.password}`),
    '',
    `  ${mailNote}`,
    mailWired
      ? `  E-mail de demonstração: escreva para ${DEMO_MAIL_ADDRESS} pelo SMTP local ${catcher!.url} (chega em 'Inbox'; as respostas ficam em data/mail/)`
      : `  E-mail de demonstração desligado: o dovecot não está instalado ou não iniciou (apt-get install dovecot-imapd; docs/email.md)`,
    ...(whatsappWired && demoWhatsapp ? [`  WhatsApp de demonstração: escreva como cliente em ${demoWhatsapp.graph.baseUrl}/cliente (chega na Fila do canal 'WhatsApp Comercial')`] : []),
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');

  const stop = async (signal: string) => {
    logger.info({ signal }, 'server.stopping');
    await server.close();
    await demoWhatsapp?.graph.close();
    await demoMail?.imap.stop();
    await catcher?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write(`Falha ao iniciar: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
