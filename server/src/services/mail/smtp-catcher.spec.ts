import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher';

/**
 * The local SMTP catcher (`npm start` without SMTP_URL; the demo mailbox is fed from it) keeps a
 * message's bytes as sent: an 8-bit body in windows-1252 was turned into UTF-8 text on the way,
 * so 'não' reached the mailbox as 'n\uFFFDo'.
 */
let dir: string;
let catcher: SmtpCatcher;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'smtp-catcher-'));
  catcher = await startSmtpCatcher({ port: 0, dir });
});
afterAll(async () => {
  await catcher?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('smtp catcher', () => {
  it('keeps an 8-bit windows-1252 message byte for byte, in the inbox and on disk, and decodes it for reading', async () => {
    // The windows-1252 bytes of ç, €, –, ã, “ and ” spelled out ('latin1' writes each char's byte).
    const raw = Buffer.concat([
      Buffer.from('From: cliente@exemplo.com\r\nTo: atendimento@exemplo.com.br\r\nSubject: Orcamento\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=windows-1252\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'),
      Buffer.from('Segue o or\xe7amento: \x80 50 \x96 e n\xe3o \x93como combinado\x94.\r\n', 'latin1'),
    ]);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.port, secure: false, ignoreTLS: true });
    await transport.sendMail({ envelope: { from: 'cliente@exemplo.com', to: ['atendimento@exemplo.com.br'] }, raw });
    const mail = await catcher.waitFor('atendimento@exemplo.com.br');
    expect(mail.bytes.subarray(mail.bytes.indexOf('\r\n\r\n') + 4).toString('latin1')).toBe('Segue o or\xe7amento: \x80 50 \x96 e n\xe3o \x93como combinado\x94.\r\n');
    expect(mail.text).toContain('Segue o orçamento: € 50 – e não “como combinado”.');
    const [file] = readdirSync(dir);
    expect(readFileSync(path.join(dir, file!)).equals(mail.bytes)).toBe(true);
  });
});
