/**
 * The console's break-glass admin token (ADMIN_TOKEN), kept in this tab's sessionStorage only: gone
 * when the tab closes, never in localStorage, never in a URL. It is sent only to the instance's own
 * address, by the admin client through the outbound-request layer (src/transfer/admin-client.ts).
 */
const KEY = 'webfolder:admin-token';

export function adminToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function saveAdminToken(token: string | null): void {
  try {
    if (token === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, token);
  } catch {
    /* storage disabled: the token lasts as long as this page */
  }
}
