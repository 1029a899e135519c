import type { Transporter } from 'nodemailer';
import type { SiteLanguage } from '../domain/site-languages.js';
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

/** A size in the reader's number format, in the binary units the page shows. */
function sizeText(bytes: number, lang: SiteLanguage): string {
  const [amount, unit] =
    bytes >= 1024 * 1024 ? [bytes / 1024 / 1024, 'MiB'] : bytes >= 1024 ? [bytes / 1024, 'KiB'] : [bytes, 'B'];
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(amount)} ${unit}`;
}

/** What happened in a folder since the digest began, from its activity list. */
export interface DigestCounts {
  readonly downloads: number;
  readonly uploads: number;
}

/**
 * The digest of a folder's notifications: one mail for everything that happened since `first` (the
 * event that opened the digest), so that many downloads make one mail, not one each. In `language`
 * (the one stored with the folder's settings; English when unknown). Times stay ISO 8601 in UTC,
 * the same for every reader wherever they are.
 */
export function composeDigest(
  first: EventBody,
  counts: DigestCounts,
  since: number,
  folderLink: string,
  siteName: string,
  refuseUrl: string,
  language: string | null = null,
): MailMessage {
  const lang = mailLanguage(language);
  const kind =
    first.type === 'file.downloaded' && counts.uploads === 0
      ? 'downloaded'
      : first.type === 'file.completed' && counts.downloads === 0
        ? 'uploaded'
        : 'activity';
  return {
    subject: mailText(lang, 'digest.subject', { site: siteName, kind }),
    text: mailText(lang, 'digest.body', {
      site: siteName,
      since: new Date(since).toISOString(),
      downloads: counts.downloads,
      uploads: counts.uploads,
      first: first.type === 'file.downloaded' ? 'downloaded' : 'uploaded',
      size: sizeText(Number(first.data.size ?? 0), lang),
      time: first.timestamp,
      folderUrl: folderLink,
      refuseUrl,
    }),
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
