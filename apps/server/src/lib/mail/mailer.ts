import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link the message carries; logged when mail goes to files. */
  link?: string;
}

export type MailTransportOptions = { kind: 'memory' } | { kind: 'eml'; dir: string } | { kind: 'smtp'; url: string };

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Messages sent through the memory transport, oldest first (tests read them). */
  outbox: MailMessage[];
  close(): void;
}

interface MailLog {
  info(obj: object, msg: string): void;
}

export function createMailer(options: MailTransportOptions, from: string, log: MailLog): Mailer {
  const outbox: MailMessage[] = [];
  if (options.kind === 'memory') {
    return {
      outbox,
      async send(message) {
        outbox.push(message);
      },
      close() {},
    };
  }
  if (options.kind === 'smtp') {
    const transport = nodemailer.createTransport(options.url);
    return {
      outbox,
      async send(message) {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
      },
      close: () => transport.close(),
    };
  }
  // No SMTP server configured: each message becomes an .eml file a person (or a test) can open.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    outbox,
    async send(message) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      mkdirSync(options.dir, { recursive: true });
      const file = join(
        options.dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      log.info({ to: message.to, file, link: message.link }, `mail written: ${message.subject}`);
    },
    close: () => transport.close(),
  };
}
