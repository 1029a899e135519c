import type { PickedFile } from '../state/index.js';

/** Files from a drop: folders are walked (webkitGetAsEntry), keeping their relative paths. */
export async function filesFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  const entries = [...data.items].map((i) => i.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0) return [...data.files].map((file) => ({ file, path: file.name }));
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
      out.push({ file, path: prefix + file.name });
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (batch.length === 0) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const e of entries) await walk(e, '');
  return out;
}

/**
 * Files picked on the home page, handed to the new folder's page in this document (the home page
 * opens it without a reload, so the File objects survive): taken once by its upload card.
 */
const handed = new Map<string, PickedFile[]>();

export function handOverFiles(folderId: string, files: PickedFile[]): void {
  handed.set(folderId, files);
}

export function takeFiles(folderId: string): PickedFile[] | null {
  const files = handed.get(folderId) ?? null;
  handed.delete(folderId);
  return files;
}
