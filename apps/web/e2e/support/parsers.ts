// Mail for the parser specs: a real Prom.ua-like order mail (the server tests' fixture) and sending
// it over SMTP with nodemailer to the parser listener of this run (scripts/e2e-server.mjs).
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';

export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? Number(process.env.E2E_PORT ?? '3100') + 1000);

export const PROM_SAMPLE = readFileSync(
  new URL('../../../server/fixtures/parsers/prom-order.eml', import.meta.url),
  'utf8',
);

export async function sendMail(mail: { to: string; raw: string; from: string }) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: SMTP_PORT, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail({ envelope: { from: mail.from, to: [mail.to] }, raw: mail.raw });
  } finally {
    transport.close();
  }
}
