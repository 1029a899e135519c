/**
 * The limits on the mail an instance sends (docs/configuration.md#mail). A public
 * instance lets anyone ask for notifications, so what reaches the operator's SMTP server is bounded
 * at every level: per address and per client for confirmation mails, per folder and per address for
 * notification digests, and for the whole instance per hour and per day. The variables and their
 * defaults are in ./variables.ts (MAIL_*).
 */
export interface MailLimits {
  /** Notifications of one folder are gathered for this long and sent as one digest. */
  readonly digestSeconds: number;
  readonly perFolderPerDay: number;
  readonly perAddressPerDay: number;
  readonly confirmationsPerAddressPerDay: number;
  readonly confirmationsPerClientPerDay: number;
  readonly budgetPerHour: number;
  readonly budgetPerDay: number;
}
