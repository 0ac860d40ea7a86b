import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';

export type Mail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send: (mail: Mail) => Promise<void> };

const FROM = 'StadiumCam <no-reply@stadiumcam.local>';

/** SMTP when SMTP_URL is set, else each mail becomes an .eml file in the outbox folder. */
export function createMailer(opts: { smtpUrl?: string; outboxDir: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      send: async (mail) => {
        await transport.sendMail({ from: FROM, ...mail });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    send: async (mail) => {
      const info = await transport.sendMail({ from: FROM, ...mail });
      await mkdir(opts.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(path.join(opts.outboxDir, name), info.message as Buffer);
    },
  };
}
