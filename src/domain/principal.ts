export type Principal =
  | { readonly kind: 'anonymous' }
  | {
      readonly kind: 'account';
      readonly accountId: string; // our id for the account (not the OIDC sub)
      readonly email: string | null;
      readonly name: string | null;
      readonly admin: boolean; // named by ADMIN_EMAILS or the OIDC admin claim/group
      readonly via: 'session' | 'api-key';
    };
