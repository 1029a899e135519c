import type { AdminClient, AdminStats } from '../core.js';
import { t } from '../i18n/index.js';
import { describeError, formatBytes, h } from './ui.js';

/** The console's statistics tab: what the instance stores, folders by state, quotas, storage and disk. */
export function adminStatsView(client: AdminClient): HTMLElement {
  const list = h('dl', { class: 'admin-stats', id: 'admin-stats' });
  const status = h('p', { class: 'muted', role: 'status' }, t('site.loading'));
  void client.stats().then(
    (s) => {
      status.textContent = '';
      list.replaceChildren(...facts(s).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
    },
    (error) => {
      status.textContent = describeError(error);
    },
  );
  return h('section', { id: 'admin-stats-view' }, status, list);
}

function facts(s: AdminStats): [string, string][] {
  const quota = (q: number | null) => (q === null ? t('admin.stat.none') : formatBytes(q));
  return [
    [t('admin.stat.folders'), String(s.folders)],
    [t('admin.stat.files'), String(s.files)],
    [t('admin.stat.bytes'), formatBytes(s.bytes)],
    [t('admin.stat.openUploads'), String(s.openUploads)],
    [t('admin.state.takenDown'), String(s.takenDown)],
    [t('admin.state.expired'), String(s.expired)],
    [t('admin.state.emptyOwnerless'), String(s.emptyOwnerless)],
    [t('admin.stat.accounts'), String(s.accounts)],
    [t('admin.stat.quota'), quota(s.quota.totalBytes)],
    [t('admin.stat.folderQuota'), quota(s.quota.folderBytes)],
    [
      t('admin.stat.storage'),
      `${s.store === 'postgresql' ? 'PostgreSQL' : 'SQLite'}, ${s.blobs === 's3' ? 'S3' : t('admin.stat.localDisk')}`,
    ],
    ...(s.disk
      ? ([
          [
            t('admin.stat.disk'),
            t('admin.stat.diskText', {
              free: formatBytes(s.disk.freeBytes),
              total: formatBytes(s.disk.totalBytes),
              floor: formatBytes(s.disk.floorBytes),
            }),
          ],
        ] as [string, string][])
      : []),
  ];
}
