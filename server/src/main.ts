import path from 'node:path';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { createServer } from './server';
import { seedDemo, DEMO_ACCOUNTS } from './demo/seed-demo';
import { startSmtpCatcher } from './services/mail/smtp-catcher';
import { createMailer } from './services/mail/mailer';
import { startDemoGraph, wireDemoWhatsapp } from './demo/whatsapp-demo';
import { DEMO_MAIL_ADDRESS, startDemoMail, wireDemoMail } from './demo/mail-demo';
import { startLocalGoogle } from './demo/google-demo';
import { startDemoErp, wireDemoErp } from './demo/erp-demo';
import { installProcessGuard } from './process-guard';

/** A signal arrived: what start-up still does may fail on closed parts, and must not turn the clean stop into exit 1. */
let stopping = false;

/** `npm start`: migrate, seed the demo tenant once, serve the app and print how to sign in. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // A request's stream error must never stop the server for every tenant.
  installProcessGuard(logger);
  // Signals are handled from the first line, not once the banner is printed: a supervisor (or
  // systemd) that stops the process while the demo is still being wired gets a clean exit 0.
  // Each part registers its closer as it starts; they run in reverse order.
  const closers: Array<() => Promise<unknown>> = [];
  const stop = async (signal: string) => {
    stopping = true;
    logger.info({ signal }, 'server.stopping');
    for (const close of closers.reverse()) await close().catch((err) => logger.warn({ err }, 'server.stop_failed'));
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  let mailNote = `SMTP: ${config.smtpUrl}`;
  let catcher: Awaited<ReturnType<typeof startSmtpCatcher>> | null = null;
  // Demo mailbox (docs/email.md): a local dovecot when installed; mail sent through the local
  // SMTP server to its address lands in it, as a customer's would.
  const demoMail = process.env.DEMO_MAIL === 'false' ? null : await startDemoMail(config.dataDir).catch((err) => (logger.warn({ err }, 'demo.mail_failed'), null));
  if (demoMail) closers.push(() => demoMail.imap.stop());
  if (!config.smtpUrl) {
    const dir = path.join(config.dataDir, 'mail');
    catcher = await startSmtpCatcher({
      port: Number(process.env.SMTP_CATCHER_PORT ?? 0),
      dir,
      onMail: (mail) => {
        if (demoMail && mail.to.includes(DEMO_MAIL_ADDRESS)) void demoMail.imap.append(demoMail.user, mail.bytes).catch((err) => logger.warn({ err }, 'demo.mail_append_failed'));
      },
    });
    closers.push(() => catcher!.close());
    mailNote = `E-mails (links de acesso, recuperação de senha) ficam em ${path.relative(process.cwd(), dir) || dir}/ (servidor SMTP local em ${catcher.url})`;
  }
  const mailer = createMailer(config.smtpUrl ?? catcher!.url, config.mailFrom, logger);
  // Demo WhatsApp (docs/whatsapp.md): a local Meta-shaped server, trusted by host:port only.
  const demoWhatsapp = process.env.DEMO_WHATSAPP === 'false' ? null : await startDemoGraph().catch((err) => (logger.warn({ err }, 'demo.whatsapp_failed'), null));
  if (demoWhatsapp) closers.push(() => demoWhatsapp.graph.close());
  if (demoWhatsapp) config.providerTrustedHosts = [...config.providerTrustedHosts, new URL(demoWhatsapp.graph.baseUrl).host];
  // Demo ERP (docs/erp.md): the local Protheus-shaped server, trusted by host:port only.
  const demoErp = process.env.DEMO_ERP === 'false' ? null : await startDemoErp().catch((err) => (logger.warn({ err }, 'demo.erp_failed'), null));
  if (demoErp) closers.push(() => demoErp.close());
  if (demoErp) config.providerTrustedHosts = [...config.providerTrustedHosts, new URL(demoErp.url).host];
  // Demo Google sign-in (docs/auth.md "Google"): without GOOGLE_CLIENT_ID, a local OpenID
  // provider stands in for Google; any e-mail typed there signs in as that (verified) address.
  const demoGoogle = config.google || process.env.DEMO_GOOGLE === 'false'
    ? null
    : await startLocalGoogle({ redirectUris: ['localhost', '127.0.0.1'].map((h) => `http://${h}:${config.port}/api/auth/google/callback`) }).catch((err) => (logger.warn({ err }, 'demo.google_failed'), null));
  if (demoGoogle) closers.push(() => demoGoogle.close());
  if (demoGoogle) config.google = { clientId: demoGoogle.clientId, clientSecret: demoGoogle.clientSecret, issuer: demoGoogle.issuer };
  const server = await createServer({ config, logger, mailer });
  closers.push(() => server.close());
  const created = await seedDemo(server.db, { tenantId: config.defaultTenant });
  // The demo's chats are written as rows, not through the services: file them in the daily
  // reports once (docs/reports.md "Rebuild"), so the dashboard shows them from the first start.
  if (created) {
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
    await server.services.reports.rebuild(config.defaultTenant, from, today);
  }
  const erpWired = demoErp
    ? await wireDemoErp(
        { db: server.db, clock: server.clock, invalidateTenants: () => server.services.tenants.invalidate(), registers: server.services.registers.registers, integrations: server.services.integrations.service },
        config.defaultTenant, demoErp, created,
      ).catch((err) => (logger.warn({ err }, 'demo.erp_failed'), false))
    : false;
  const url = await server.listen();
  const appPort = Number(new URL(url).port);
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
    config.secretsKeySource === 'env'
      ? '  Segredos dos canais: cifrados com SECRETS_KEY'
      : `  Segredos dos canais: cifrados com a chave local ${path.join(path.relative(process.cwd(), config.dataDir) || '.', 'secrets-key')}${config.secretsKeySource === 'generated' ? ' (gerada agora)' : ''}; em produção defina SECRETS_KEY`,
    mailWired
      ? `  E-mail de demonstração: escreva para ${DEMO_MAIL_ADDRESS} pelo SMTP local ${catcher!.url} (chega em 'Inbox'; as respostas ficam em ${path.join(path.relative(process.cwd(), config.dataDir) || '.', 'mail')}/)`
      : process.env.DEMO_MAIL === 'false'
        ? '  E-mail de demonstração desligado (DEMO_MAIL=false)'
        : `  E-mail de demonstração desligado: o dovecot não está instalado ou não iniciou (apt-get install dovecot-imapd; docs/email.md)`,
    ...(erpWired && demoErp ? [`  ERP de demonstração: ${demoErp.url} (menu 'Pedidos (ERP)': pedidos, PDF e a aba 'Integrações' do contato; 'Orçamentos' no painel do contato abre o portal do ERP)`] : []),
    ...(demoGoogle ? [`  Google de demonstração: 'Entrar com Google' abre o provedor local ${demoGoogle.issuer}; digite o e-mail de uma conta (ex.: ${DEMO_ACCOUNTS[2].email}) e qualquer senha`] : []),
    ...(whatsappWired && demoWhatsapp ? [`  WhatsApp de demonstração: escreva como cliente em ${demoWhatsapp.graph.baseUrl}/cliente (chega na Fila do canal 'WhatsApp Comercial')`] : []),
    ...(whatsappWired && demoWhatsapp
      ? [`  Canais (admin): menu 'Canais'; 'WhatsApp Comercial' usa o servidor Meta local (${demoWhatsapp.graph.baseUrl}): 'Testar conexão' responde de verdade`]
      : []),
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');

}

main().catch((error) => {
  // Stopped while starting (systemd, a supervisor, Ctrl+C): stop() exits 0 once its closers ran.
  if (stopping) return;
  process.stderr.write(`Falha ao iniciar: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
