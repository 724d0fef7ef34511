// Mail for the parser specs: a real Prom.ua-like order mail (the server tests' fixture) and sending
// it over SMTP with nodemailer to the parser listener of this worker's server (scripts/e2e-server.mjs).
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import { smtpPort } from '../../playwright.config';

export const PROM_SAMPLE = readFileSync(
  new URL('../../../server/fixtures/parsers/prom-order.eml', import.meta.url),
  'utf8',
);

export async function sendMail(mail: { to: string; raw: string; from: string }) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail({ envelope: { from: mail.from, to: [mail.to] }, raw: mail.raw });
  } finally {
    transport.close();
  }
}
