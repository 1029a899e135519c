import type { Transporter } from 'nodemailer';
import type { EventBody } from './payload.js';

/**
 * Owner e-mails through SMTP (nodemailer; SMTP_URL, MAIL_FROM). Short plain-text messages with the
 * folder's link (without its key: the owner has that) and what happened; no file names, which the
 * server cannot read anyway.
 */
export interface Mailer {
  send(to: string, event: EventBody, folderLink: string): Promise<void>;
  close(): void;
}

/** `siteName` (SITE_NAME) begins each subject, so that the owner sees which instance wrote. */
export function smtpMailer(smtpUrl: string, from: string, timeoutMs: number, siteName: string): Mailer {
  // nodemailer is loaded on the first mail, not at start: most nodes never send one.
  let transport: Promise<Transporter> | null = null;
  const open = () => {
    transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport(smtpUrl, {
        from,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      } as Parameters<typeof createTransport>[1]),
    );
    return transport;
  };
  return {
    async send(to, event, folderLink) {
      const { subject, text } = compose(event, folderLink, siteName);
      await (await open()).sendMail({ from, to, subject, text });
    },
    close: () => {
      transport?.then((t) => t.close()).catch(() => {});
    },
  };
}

const sizeText = (bytes: unknown) =>
  typeof bytes === 'number'
    ? bytes >= 1024 * 1024
      ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
      : bytes >= 1024
        ? `${(bytes / 1024).toFixed(1)} KiB`
        : `${bytes} bytes`
    : 'a file';

export function compose(event: EventBody, folderLink: string, siteName: string): { subject: string; text: string } {
  const what =
    event.type === 'file.downloaded'
      ? `A file (${sizeText(event.data.size)}) was downloaded from your folder.`
      : `A file (${sizeText(event.data.size)}) was uploaded to your folder.`;
  return {
    subject: `${siteName}: ${
      event.type === 'file.downloaded' ? 'A file was downloaded from your folder' : 'A file was uploaded to your folder'
    }`,
    text: [
      what,
      '',
      `Folder: ${folderLink}`,
      `When: ${event.timestamp}`,
      `File id: ${event.data.fileId ?? '-'}`,
      '',
      'You get this message because you asked to be notified for this folder. Open the folder with your',
      'own link (it holds the key) to turn notifications off; they end when the folder is deleted.',
      '',
    ].join('\n'),
  };
}
