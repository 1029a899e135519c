import type { Transporter } from 'nodemailer';
import { mailLanguage, mailText } from './mail-language.js';
import type { EventBody } from './payload.js';

/**
 * Mail through SMTP (nodemailer; SMTP_URL, MAIL_FROM): short plain-text messages. Every message
 * carries the instance's refusal link as `List-Unsubscribe` with RFC 8058 one-click
 * (`List-Unsubscribe-Post`), which mail providers require of bulk senders and show as a button.
 * No file names (the server cannot read them) and no folder titles.
 */
export interface MailMessage {
  readonly subject: string;
  readonly text: string;
  /** The address's refusal link (src/app/mail-consent.ts), for List-Unsubscribe and the text. */
  readonly refuseUrl: string;
}

export interface Mailer {
  send(to: string, message: MailMessage): Promise<void>;
  close(): void;
}

/** `siteName` (SITE_NAME) begins each subject, so that the reader sees which instance wrote. */
export function smtpMailer(smtpUrl: string, from: string, timeoutMs: number): Mailer {
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
    async send(to, message) {
      await (await open()).sendMail({
        from,
        to,
        subject: message.subject,
        text: message.text,
        headers: {
          'List-Unsubscribe': `<${message.refuseUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          'Auto-Submitted': 'auto-generated',
        },
      });
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

const refusal = (refuseUrl: string, siteName: string) => [
  `To get no more mail from ${siteName} at this address, for any folder: ${refuseUrl}`,
];

/** What happened in a folder since the digest began, from its activity list. */
export interface DigestCounts {
  readonly downloads: number;
  readonly uploads: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The digest of a folder's notifications: one mail for everything that happened since `first` (the
 * event that opened the digest), so that many downloads make one mail, not one each.
 */
export function composeDigest(
  first: EventBody,
  counts: DigestCounts,
  since: number,
  folderLink: string,
  siteName: string,
  refuseUrl: string,
): MailMessage {
  const firstLine =
    first.type === 'file.downloaded'
      ? `First: a file (${sizeText(first.data.size)}) was downloaded at ${first.timestamp}.`
      : `First: a file (${sizeText(first.data.size)}) was uploaded at ${first.timestamp}.`;
  const what = [
    counts.downloads > 0 ? plural(counts.downloads, 'download', 'downloads') : null,
    counts.uploads > 0 ? plural(counts.uploads, 'upload completed', 'uploads completed') : null,
  ].filter(Boolean);
  const subject =
    first.type === 'file.downloaded' && counts.uploads === 0
      ? 'Files were downloaded from your folder'
      : first.type === 'file.completed' && counts.downloads === 0
        ? 'Files were uploaded to your folder'
        : 'Activity in your folder';
  return {
    subject: `${siteName}: ${subject}`,
    text: [
      `Since ${new Date(since).toISOString()}: ${what.length > 0 ? what.join(', ') : 'activity'} in your folder.`,
      firstLine,
      '',
      `Folder: ${folderLink}`,
      'Open it with your own link (it holds the key) to see its activity list or to turn notifications off.',
      'Notifications are gathered into one mail like this one, at most one per digest period.',
      '',
      ...refusal(refuseUrl, siteName),
      '',
    ].join('\n'),
    refuseUrl,
  };
}

/**
 * The one mail an address gets before it confirms: nothing but the two links, in the language of
 * the page it was asked from (`language`, a site language tag; English when unknown).
 */
export function composeConfirmation(
  siteName: string,
  confirmUrl: string,
  refuseUrl: string,
  validHours: number,
  language: string | null = null,
): MailMessage {
  const lang = mailLanguage(language);
  return {
    subject: mailText(lang, 'confirm.subject', { site: siteName }),
    text: mailText(lang, 'confirm.body', { site: siteName, confirmUrl, refuseUrl, hours: validHours }),
    refuseUrl,
  };
}
