import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { dataDir } from '../../playwright.config';

export interface ReceivedMail {
  subject: string;
  text: string;
  links: string[];
}

/** Waits for the newest message to `to` written by the server to DATA_DIR/mail after `since`. */
export async function waitForMail(to: string, since: number, timeoutMs = 15_000): Promise<ReceivedMail> {
  const folder = join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const names = await readdir(folder).catch(() => [] as string[]);
    const found: { mail: ReceivedMail; date: number }[] = [];
    for (const name of names.filter((n) => n.endsWith('.eml'))) {
      const file = join(folder, name);
      const date = (await stat(file)).mtimeMs;
      if (date < since) continue;
      const parsed = await simpleParser(await readFile(file));
      const recipients = [parsed.to].flat().flatMap((a) => a?.value.map((v) => v.address?.toLowerCase()) ?? []);
      if (!recipients.includes(to.toLowerCase())) continue;
      const text = parsed.text ?? '';
      const links = [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
      found.push({ mail: { subject: parsed.subject ?? '', text, links }, date });
    }
    found.sort((a, b) => b.date - a.date);
    if (found[0]) return found[0].mail;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms in ${folder}`);
}

export function linkTo(mail: ReceivedMail, path: RegExp): string {
  const link = mail.links.find((l) => path.test(new URL(l).pathname));
  if (!link) throw new Error(`no link matching ${path} in: ${mail.links.join(', ')}`);
  return link;
}
