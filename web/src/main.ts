import { renderSVG } from 'uqr';
import type { FolderInfo, SiteFile, SiteFileEntry } from '../../src/contract/site.js';
import {
  CryptoFormatError,
  checkSke,
  createSke,
  decryptText,
  deriveOwnerCredentials,
  encryptText,
  type FolderKey,
  generateSecret,
  importSecret,
  type OwnerCredentials,
  openSealedSecret,
  sealSecret,
} from '../../src/crypto/index.js';
import { ApiError, credentialHeaders, SiteApi } from './api.js';
import { siteConfig } from './config.js';
import { download, startServiceWorker } from './download.js';
import {
  addPending,
  ownerSecretOf,
  type PendingUpload,
  pendingUploads,
  saveOwnerSecret,
  visitorToken,
} from './storage.js';
import type { DownloadFile } from './stream.js';
import { announce, formatBytes, formatDuration, h, main, notice } from './ui.js';
import { type FileJob, filesFromDrop, type Progress, Uploader } from './upload.js';

const config = siteConfig();
document.getElementById('home-link')?.setAttribute('href', config.base);

const MODE_TEXT: Record<FolderInfo['mode'], string> = {
  send: 'Send: the owner uploads, everyone with the link downloads.',
  share: 'Share: everyone with the link uploads and downloads.',
  request: 'Request: visitors upload; only the owner can see and download the files.',
};

function route(): void {
  const rest = location.pathname.startsWith(config.base) ? location.pathname.slice(config.base.length) : '';
  const m = /^f\/([A-Za-z0-9_-]{16})\/?$/.exec(rest);
  if (m) void folderPage(m[1]!);
  else if (rest === '' || rest === 'index.html') homePage();
  else showError('Page not found', 'There is nothing at this address.');
}

function render(...children: (Node | string | null | false)[]): void {
  const m = main();
  m.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== false));
}

function showError(title: string, text: string): void {
  document.title = `${title} · webfolder`;
  render(
    h('h1', {}, title),
    h('div', { id: 'error', class: 'notice error', role: 'alert' }, text),
    h('p', {}, h('a', { href: config.base }, 'Create a new folder')),
  );
  main().focus();
}

// ---- Home: create a folder ---------------------------------------------------------------------
function homePage(): void {
  document.title = 'webfolder';
  const title = h('input', { type: 'text', id: 'new-title', maxlength: 200, autocomplete: 'off' });
  const mode = h(
    'select',
    { id: 'new-mode' },
    h('option', { value: 'send' }, 'Send — I upload, others download'),
    h('option', { value: 'share' }, 'Share — everyone uploads and downloads'),
  );
  // No "request" here: the first uploader becomes the owner, so a request folder made from this page
  // would belong to whoever uploads first (spec 4.1 rule 5). The API still creates them.
  const status = h('div', { role: 'status' });
  const button = h('button', { type: 'submit' }, 'Create a folder');
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        button.disabled = true;
        status.replaceChildren('Creating…');
        try {
          const body: Record<string, string> = { mode: mode.value };
          if (title.value.trim()) body.title = title.value.trim();
          const res = await fetch(`${config.baseUrl}/v2/folders`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const json = (await res.json()) as { folderUrl?: string; error?: string };
          if (!res.ok || !json.folderUrl) throw new Error(json.error ?? `HTTP ${res.status}`);
          location.href = json.folderUrl;
        } catch (error) {
          status.replaceChildren(notice(`Could not create the folder: ${(error as Error).message}`, 'error'));
          button.disabled = false;
        }
      },
    },
    h('p', {}, h('label', { for: 'new-title' }, 'Title (optional)'), title),
    h('p', {}, h('label', { for: 'new-mode' }, 'Who can do what'), mode),
    button,
    status,
  );
  render(
    h('h1', {}, 'Send files, end-to-end encrypted'),
    h(
      'p',
      {},
      'Files are encrypted in your browser before they leave it. The key is the part of the link after #: the server never sees it.',
    ),
    h('section', { class: 'card', 'aria-labelledby': 'create-h' }, h('h2', { id: 'create-h' }, 'New folder'), form),
    h('p', { class: 'muted' }, 'Programs and agents: see the ', h('a', { href: config.docsUrl }, 'documentation'), '.'),
  );
}

// ---- Folder page -------------------------------------------------------------------------------
interface Fragment {
  secret: string | null;
  ownerSecret: string | null;
}

function parseFragment(): Fragment {
  const raw = location.hash.replace(/^#/, '');
  if (!raw) return { secret: null, ownerSecret: null };
  const [secret, ...params] = raw.split('&');
  let ownerSecret: string | null = null;
  for (const p of params) if (p.startsWith('owner=')) ownerSecret = decodeURIComponent(p.slice(6));
  return { secret: secret ? decodeURIComponent(secret) : null, ownerSecret };
}

interface FolderState {
  folderId: string;
  api: SiteApi;
  info: FolderInfo;
  secret: string;
  key: FolderKey;
  owner: OwnerCredentials | null;
  ownerSecret: string | null;
}

async function folderPage(folderId: string): Promise<void> {
  const fragment = parseFragment();
  if (fragment.ownerSecret) {
    // An owner link: keep the owner secret in this browser, and show the plain share link.
    saveOwnerSecret(folderId, fragment.ownerSecret);
    history.replaceState(null, '', `${location.pathname}${fragment.secret ? `#${fragment.secret}` : ''}`);
  }
  const ownerSecret = ownerSecretOf(folderId);
  let owner: OwnerCredentials | null = null;
  if (ownerSecret) {
    try {
      owner = await deriveOwnerCredentials(ownerSecret);
    } catch {
      saveOwnerSecret(folderId, null);
    }
  }
  const api = new SiteApi(config, folderId, { ownerToken: owner?.authToken, visitorToken: visitorToken() });
  let info: FolderInfo;
  try {
    info = await api.info();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      const expired = /has expired/.test(error.message);
      return showError(
        expired ? 'This folder has expired' : 'Folder not found',
        expired
          ? 'This folder has expired and its files are gone. Empty folders are deleted 24 hours after they are created; files when their download period ends.'
          : 'This folder does not exist. It may have expired (empty folders are deleted after 24 hours, files after their download period) or been deleted, or the link is mistyped.',
      );
    }
    return showError('Something went wrong', (error as Error).message);
  }
  if (!fragment.secret)
    return showError(
      'This link has no key',
      'The link is missing its key: the part after # at its end. Ask for the complete link; the server never has the key, so it cannot be recovered here.',
    );
  let key: FolderKey;
  try {
    key = await importSecret(fragment.secret);
  } catch (error) {
    if (error instanceof CryptoFormatError)
      return showError(
        'This link’s key is damaged',
        'The key at the end of the link (after #) is not valid. Copy the complete link again.',
      );
    throw error;
  }
  if (info.ske !== null && !(await checkSke(key, info.ske))) {
    return showError(
      'Wrong key for this folder',
      'The key at the end of this link (after #) does not open this folder. Check that you copied the whole link.',
    );
  }
  if (owner && !info.isOwner) {
    // A stale owner secret (another browser claimed first, or a mistyped owner link).
    saveOwnerSecret(folderId, null);
    owner = null;
    api.credentials = { visitorToken: visitorToken() };
  }
  const state: FolderState = {
    folderId,
    api,
    info,
    secret: fragment.secret,
    key,
    owner,
    ownerSecret: owner ? ownerSecret : null,
  };
  void startServiceWorker(config);
  renderFolder(state);
}

function shareLink(state: FolderState): string {
  return `${location.origin}${location.pathname}#${state.secret}`;
}

function copyButton(id: string, text: () => string, label: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary', id }, label);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      announce('Copied to the clipboard');
      button.textContent = 'Copied';
    } catch {
      announce('Copy failed: select the text and copy it');
      button.textContent = 'Select and copy the text';
    }
    setTimeout(() => (button.textContent = label), 2500);
  });
  return button;
}

function renderFolder(state: FolderState): void {
  const { info } = state;
  document.title = `${info.title} · webfolder`;
  const roleText = info.isOwner
    ? 'You own this folder.'
    : info.owned
      ? 'You are a visitor.'
      : 'Nobody owns this folder yet: the first person to upload becomes its owner.';
  const parts: (Node | null)[] = [
    h('h1', { id: 'folder-title' }, info.title),
    h('p', { class: 'muted' }, MODE_TEXT[info.mode]),
    h('p', { id: 'role', 'data-role': info.isOwner ? 'owner' : info.owned ? 'visitor' : 'unclaimed' }, roleText),
  ];
  if (info.uploadDeadline !== null) {
    const left = info.uploadDeadline - Date.now();
    parts.push(
      h(
        'div',
        { class: 'notice', id: 'deadline' },
        `This folder is empty. Upload within ${formatDuration(left)} or it will be deleted.`,
        info.rights.upload ? ' Pick or drop files below to start.' : '',
      ),
    );
  }
  if (info.isOwner && state.ownerSecret) parts.push(ownerLinkSection(state));
  parts.push(shareSection(state));
  if (info.rights.upload) parts.push(uploadSection(state));
  if (info.rights.list) parts.push(filesSection(state));
  else
    parts.push(
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Files'),
        h(
          'p',
          { id: 'no-list' },
          'Only the owner of this folder can see and download its files. What you upload is encrypted so that only the owner can open it — not even other visitors with this link.',
        ),
      ),
    );
  render(...parts);
}

function ownerLinkSection(state: FolderState): HTMLElement {
  const link = `${shareLink(state)}&owner=${state.ownerSecret}`;
  const input = h('input', {
    type: 'text',
    id: 'owner-link',
    readonly: true,
    value: link,
    'aria-describedby': 'owner-help',
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'owner-h' },
    h('h2', { id: 'owner-h' }, 'Your owner link'),
    h(
      'p',
      { id: 'owner-help' },
      'This browser remembers that you own this folder. Save this link somewhere private: it restores ownership in another browser, or here if browser data is cleared. Do not share it.',
    ),
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'owner-link', class: 'visually-hidden' }, 'Owner link'),
      input,
      copyButton('copy-owner-link', () => link, 'Copy owner link'),
    ),
  );
}

function shareSection(state: FolderState): HTMLElement {
  const link = shareLink(state);
  const qr = h('div', { class: 'qr', role: 'img', 'aria-label': 'QR code of the share link' });
  // uqr's SVG has no script or style: only rects and paths.
  qr.innerHTML = renderSVG(link, { border: 2 });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'share-h' },
    h('h2', { id: 'share-h' }, 'Share'),
    h(
      'p',
      {},
      'Anyone with this link can ',
      state.info.mode === 'request'
        ? 'upload to this folder.'
        : state.info.mode === 'share'
          ? 'upload and download.'
          : 'download the files.',
    ),
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'share-link', class: 'visually-hidden' }, 'Share link'),
      h('input', { type: 'text', id: 'share-link', readonly: true, value: link }),
      copyButton('copy-link', () => link, 'Copy link'),
    ),
    h('details', {}, h('summary', {}, 'QR code'), qr),
  );
}

// ---- Upload --------------------------------------------------------------------------------------
function uploadSection(state: FolderState): HTMLElement {
  const fileInput = h('input', { type: 'file', id: 'file-input', multiple: true });
  const dirInput = h('input', { type: 'file', id: 'folder-input', multiple: true, webkitdirectory: true });
  const area = h('div', { id: 'upload-area' });
  const pending = pendingUploads(state.folderId);
  const resumeNote = pending.length
    ? notice(
        `${pending.length} upload${pending.length > 1 ? 's' : ''} did not finish (${pending.map((p) => p.name).join(', ')}). Pick the same file${pending.length > 1 ? 's' : ''} again to send only the missing parts.`,
      )
    : null;
  if (resumeNote) resumeNote.id = 'resume-note';
  const start = (items: Array<{ file: File; path: string }>) => {
    fileInput.value = '';
    dirInput.value = '';
    if (items.length) void startUpload(state, items, area);
  };
  fileInput.addEventListener('change', () =>
    start([...(fileInput.files ?? [])].map((file) => ({ file, path: file.name }))),
  );
  dirInput.addEventListener('change', () =>
    start([...(dirInput.files ?? [])].map((file) => ({ file, path: file.webkitRelativePath || file.name }))),
  );
  const drop = h(
    'div',
    { class: 'drop', id: 'drop-zone' },
    h('p', {}, 'Drop files or folders here, or'),
    h(
      'div',
      { class: 'row', style: undefined },
      h('label', { class: 'pick' }, fileInput, h('span', {}, 'Choose files')),
      h('label', { class: 'pick' }, dirInput, h('span', {}, 'Choose a folder')),
    ),
  );
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    if (e.dataTransfer) void filesFromDrop(e.dataTransfer).then(start);
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'upload-h' },
    h('h2', { id: 'upload-h' }, 'Upload'),
    resumeNote,
    drop,
    area,
  );
}

async function fileKeyFor(
  state: FolderState,
  sealed: boolean,
): Promise<{ key: FolderKey; fileSecret?: string; sealedKey?: string }> {
  if (!sealed) return { key: state.key };
  const fileSecret = generateSecret();
  return {
    key: await importSecret(fileSecret),
    fileSecret,
    sealedKey: await sealSecret(state.info.ownerPublicKey!, fileSecret),
  };
}

async function startUpload(
  state: FolderState,
  picked: Array<{ file: File; path: string }>,
  area: HTMLElement,
): Promise<void> {
  const items = picked.filter((i) => i.file.size > 0);
  const messages: HTMLElement[] = [];
  if (items.length < picked.length)
    messages.push(notice(`${picked.length - items.length} empty file(s) skipped: empty files cannot be uploaded.`));
  area.replaceChildren(...messages, h('p', { id: 'upload-status', role: 'status' }, 'Encrypting file names…'));
  try {
    const jobs: FileJob[] = [];
    const pending = pendingUploads(state.folderId);
    const fresh: typeof items = [];
    for (const item of items) {
      const p = pending.find(
        (u) => u.name === item.path && u.size === item.file.size && u.lastModified === item.file.lastModified,
      );
      if (p) jobs.push(await resumeJob(state, p, item.file));
      else fresh.push(item);
    }
    const sealed = state.info.mode === 'request' && state.info.owned && !state.info.isOwner;
    for (let i = 0; i < fresh.length; i += 100)
      jobs.push(...(await registerBatch(state, fresh.slice(i, i + 100), sealed)));
    await runJobs(state, jobs, area);
  } catch (error) {
    const failure = h(
      'div',
      { id: 'upload-error', class: 'notice error', role: 'alert' },
      `Upload failed: ${(error as Error).message}`,
    );
    if (error instanceof ApiError && error.status === 403) {
      // The folder changed under us (it was claimed by someone else): redraw with what we may do now.
      renderFolder(state);
      main().prepend(failure);
      return;
    }
    area.replaceChildren(...messages, failure);
  }
}

async function resumeJob(state: FolderState, p: PendingUpload, file: File): Promise<FileJob> {
  const [status, fresh] = await Promise.all([state.api.status(p.fileId), state.api.uploadUrls(p.fileId)]);
  const key = p.fileSecret ? await importSecret(p.fileSecret) : state.key;
  const missing = new Set(status.missing);
  let confirmed = 0;
  for (let n = 1; n <= p.chunks; n++)
    if (!missing.has(n)) confirmed += n < p.chunks ? p.chunkSize : p.size - p.chunkSize * (p.chunks - 1);
  return {
    folderId: state.folderId,
    fileId: p.fileId,
    file,
    name: p.name,
    key,
    chunkSize: p.chunkSize,
    chunks: p.chunks,
    urls: fresh.uploadUrls,
    todo: status.missing,
    confirmed,
    inflight: new Map(),
    state: 'waiting',
  };
}

async function registerBatch(
  state: FolderState,
  items: Array<{ file: File; path: string }>,
  sealed: boolean,
): Promise<FileJob[]> {
  const keys = await Promise.all(items.map(() => fileKeyFor(state, sealed)));
  const entries: SiteFileEntry[] = await Promise.all(
    items.map(async (item, i): Promise<SiteFileEntry> => {
      const k = keys[i]!;
      return {
        filename: await encryptText(k.key, item.path),
        filesize: item.file.size,
        ...(item.file.type ? { mimetype: await encryptText(k.key, item.file.type) } : {}),
        ...(k.sealedKey ? { sealedKey: k.sealedKey } : {}),
      };
    }),
  );
  const extra: { ske?: string; ownerPublicKey?: string } = {};
  let claiming: { secret: string; creds: OwnerCredentials } | null = null;
  if (!state.info.owned) {
    // The first upload claims the folder: this browser gets an owner secret, the server its token's hash.
    const secret = generateSecret();
    claiming = { secret, creds: await deriveOwnerCredentials(secret) };
    state.api.credentials = { ...state.api.credentials, ownerToken: claiming.creds.authToken };
    extra.ownerPublicKey = claiming.creds.publicKey;
    if (state.info.ske === null) extra.ske = await createSke(state.key);
  }
  let response: Awaited<ReturnType<SiteApi['register']>>;
  try {
    response = await state.api.register(entries, extra);
  } catch (error) {
    // A refused claim (someone else uploaded first, and the mode forbids visitors to upload):
    // drop the unused owner credential and show the folder as it now is.
    if (claiming) {
      state.api.credentials = { visitorToken: state.api.credentials.visitorToken };
      state.info = await state.api.info().catch(() => state.info);
    }
    throw error;
  }
  if (claiming) {
    if (response.role === 'owner') {
      saveOwnerSecret(state.folderId, claiming.secret);
      state.owner = claiming.creds;
      state.ownerSecret = claiming.secret;
    } else {
      state.api.credentials = { visitorToken: state.api.credentials.visitorToken };
    }
    state.info = await state.api.info();
    announce(
      response.role === 'owner'
        ? 'You are now the owner of this folder.'
        : 'Someone else uploaded first and owns this folder.',
    );
  }
  return response.files.map((f, i) => {
    const item = items[i]!;
    const pending: PendingUpload = {
      fileId: f.fileId,
      name: item.path,
      size: item.file.size,
      lastModified: item.file.lastModified,
      chunkSize: f.chunkSize,
      chunks: f.chunks,
    };
    if (keys[i]!.fileSecret) pending.fileSecret = keys[i]!.fileSecret!;
    addPending(state.folderId, pending);
    return {
      folderId: state.folderId,
      fileId: f.fileId,
      file: item.file,
      name: item.path,
      key: keys[i]!.key,
      chunkSize: f.chunkSize,
      chunks: f.chunks,
      urls: f.uploadUrls,
      todo: Array.from({ length: f.chunks }, (_, n) => n + 1),
      confirmed: 0,
      inflight: new Map(),
      state: 'waiting',
    };
  });
}

async function runJobs(state: FolderState, jobs: FileJob[], area: HTMLElement): Promise<void> {
  const overall = h('progress', { id: 'overall-progress', max: 1, value: 0, 'aria-label': 'Overall upload progress' });
  const overallText = h('p', { class: 'progress-line', id: 'upload-status', role: 'status' });
  const rows = jobs.map((job) => {
    const bar = h('progress', { max: job.file.size, value: 0, 'aria-label': `Progress of ${job.name}` });
    const text = h('span', { class: 'progress-line' });
    return {
      job,
      bar,
      text,
      li: h('li', { 'data-upload': job.fileId }, h('span', { class: 'name' }, job.name), text, bar),
    };
  });
  const cancel = h('button', { type: 'button', class: 'secondary', id: 'cancel-upload' }, 'Cancel upload');
  area.replaceChildren(
    overall,
    overallText,
    cancel,
    h('ul', { class: 'files', id: 'uploads' }, ...rows.map((r) => r.li)),
  );
  const paint = (p: Progress) => {
    overall.max = Math.max(1, p.total);
    overall.value = p.sent;
    const done = p.jobs.filter((j) => j.state === 'done').length;
    overallText.textContent = `${done} of ${p.jobs.length} files · ${formatBytes(p.sent)} of ${formatBytes(p.total)} · ${formatBytes(p.speed)}/s · ${formatDuration(p.etaMs)} left`;
    for (const r of rows) {
      let sent = r.job.confirmed;
      for (const b of r.job.inflight.values()) sent += b;
      r.bar.value = sent;
      r.text.textContent =
        r.job.state === 'failed'
          ? `failed: ${r.job.error}`
          : r.job.state === 'done'
            ? 'done'
            : r.job.state === 'cancelled'
              ? 'cancelled'
              : `${Math.floor((sent / r.job.file.size) * 100)} %`;
    }
  };
  const uploader = new Uploader(state.api, jobs, paint);
  cancel.addEventListener('click', () => uploader.cancel());
  await uploader.run();
  cancel.remove();
  const failed = jobs.filter((j) => j.state === 'failed');
  const cancelled = jobs.some((j) => j.state === 'cancelled');
  overallText.textContent = failed.length
    ? `${failed.length} file(s) failed. Pick them again to retry: only the missing parts are sent.`
    : cancelled
      ? 'Upload cancelled. Pick the same files again to continue where it stopped.'
      : `Upload complete: ${jobs.length} file(s).`;
  overallText.dataset.state = failed.length ? 'failed' : cancelled ? 'cancelled' : 'complete';
  announce(overallText.textContent);
  // Ownership or the file list may have changed: redraw with fresh information, keeping this report.
  state.info = await state.api.info();
  renderFolder(state);
  document.getElementById('upload-area')?.replaceChildren(overallText);
}

// ---- Files and download --------------------------------------------------------------------------
interface OpenedFile {
  file: SiteFile;
  name: string | null;
  secret: string | null;
}

async function openFile(state: FolderState, file: SiteFile): Promise<OpenedFile> {
  try {
    let secret = state.secret;
    let key = state.key;
    if (file.sealedKey) {
      if (!state.owner) return { file, name: null, secret: null };
      secret = await openSealedSecret(state.owner.privateKey, file.sealedKey);
      key = await importSecret(secret);
    }
    return { file, name: await decryptText(key, file.filename), secret };
  } catch {
    return { file, name: null, secret: null };
  }
}

function toDownload(state: FolderState, f: OpenedFile): DownloadFile {
  return {
    name: f.name ?? f.file.fileId,
    size: f.file.filesize,
    mimetype: null,
    chunkSize: f.file.chunkSize,
    chunks: f.file.chunks,
    secret: f.secret!,
    chunkBase: new URL(`${config.api}/folders/${state.folderId}/files/${f.file.fileId}/chunks`, location.href).href,
  };
}

function filesSection(state: FolderState): HTMLElement {
  const list = h('ul', { class: 'files', id: 'files', 'aria-busy': 'true' });
  const status = h('div', { id: 'download-status', role: 'status' });
  const all = h('button', { type: 'button', id: 'download-all', disabled: true }, 'Download all (.zip)');
  const section = h(
    'section',
    { class: 'card', 'aria-labelledby': 'files-h' },
    h('h2', { id: 'files-h' }, 'Files'),
    list,
    h('div', { class: 'row' }, all),
    status,
  );
  navigator.serviceWorker?.addEventListener('message', (e: MessageEvent) => {
    const d = e.data as { type?: string; message?: string };
    if (d?.type === 'download-error') status.replaceChildren(notice(`Download failed: ${d.message}`, 'error'));
  });
  const start = async (label: string, job: Parameters<typeof download>[1]) => {
    status.replaceChildren(`Starting download of ${label}…`);
    status.removeAttribute('data-download-path');
    try {
      const path = await download(config, job);
      // Which way the download went ('service-worker' or 'memory'), for tests and support.
      status.setAttribute('data-download-path', path);
      status.replaceChildren(
        path === 'service-worker'
          ? `Downloading ${label}: the file is decrypted as it arrives.`
          : `Downloaded ${label}. This browser cannot stream downloads (no service worker), so the file was assembled in memory.`,
      );
    } catch (error) {
      status.replaceChildren(notice(`Download failed: ${(error as Error).message}`, 'error'));
    }
  };
  void (async () => {
    try {
      const { files } = await state.api.list();
      const opened = await Promise.all(files.map((f) => openFile(state, f)));
      list.removeAttribute('aria-busy');
      if (opened.length === 0) list.replaceChildren(h('li', { class: 'muted' }, 'No files yet.'));
      else
        list.replaceChildren(
          ...opened.map((o) => {
            const name =
              o.name ?? (o.file.sealedKey && !state.owner ? 'Encrypted for the owner' : 'Name cannot be decrypted');
            const button = h(
              'button',
              {
                type: 'button',
                class: 'secondary download',
                disabled: !o.file.complete || !o.secret,
                'aria-label': `Download ${name}`,
              },
              o.file.complete ? 'Download' : 'Uploading…',
            );
            button.addEventListener(
              'click',
              () =>
                void start(name, {
                  kind: 'file',
                  name,
                  files: [toDownload(state, o)],
                  headers: credentialHeaders(state.api.credentials),
                }),
            );
            return h(
              'li',
              { 'data-file-id': o.file.fileId },
              h('span', { class: 'name' }, name),
              h('span', { class: 'muted' }, formatBytes(o.file.filesize)),
              button,
            );
          }),
        );
      const ready = opened.filter((o) => o.file.complete && o.secret);
      all.disabled = ready.length === 0;
      all.addEventListener('click', () => {
        const zipName = `${state.info.title.replace(/[\\/:*?"<>|]+/g, '_') || 'webfolder'}.zip`;
        void start(zipName, {
          kind: 'zip',
          name: zipName,
          files: ready.map((o) => toDownload(state, o)),
          headers: credentialHeaders(state.api.credentials),
        });
      });
    } catch (error) {
      list.replaceChildren(h('li', {}, notice(`Could not load the files: ${(error as Error).message}`, 'error')));
    }
  })();
  return section;
}

route();
