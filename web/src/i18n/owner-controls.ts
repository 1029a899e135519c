import type { Message } from './catalog.js';

/**
 * The words of the home page's new-folder options, the visitor summary, the owner's controls, the
 * password prompt and the request receipt (issue 12), in their own file so the catalogs stay easy
 * to merge; en.ts, de.ts and ko.ts spread them in (the keys are checked with the rest).
 */
export const ownerControlsEn = {
  'home.modeRequest': 'Request — others upload to me; only I can open the files',
  'home.titleHelp':
    'Folder titles are not encrypted: the server and anyone with the link can read them. File names, contents and the note are encrypted.',
  'home.expiryLabel': 'Keep the files available for',
  'home.limitLabel': 'Downloads allowed per file (optional)',
  'home.limitHelp': 'For example 1 for a one-time link. Your own downloads do not count.',
  'home.passwordLabel': 'Password (optional)',
  'home.passwordHelp':
    'Recipients need the link and this password: send it another way. It cannot be changed or recovered. Whoever holds the link can try guesses on their own computer (each costs about a second), so use four random words or more.',
  'home.noteLabel': 'Note to recipients (optional)',
  'home.noteHelp': 'Encrypted like the file names.',
  'home.creatingPassword': 'Creating… (making the key from the password takes a second)',

  'expiry.hours': { one: '{count} hour', other: '{count} hours' },
  'expiry.days': { one: '{count} day', other: '{count} days' },

  'folder.firstUploadOwns':
    'Whoever uploads first becomes the owner of this folder: only they can then delete files and change its settings. If someone sent you this link to fill, upload right away; if you made it, upload first before you share it.',

  'files.summary': 'Summary',
  'files.count': { one: '{count} file', other: '{count} files' },
  'files.availableUntil': 'available until {date}',
  'files.downloads': { one: '{count} download', other: '{count} downloads' },
  'files.downloadsLeft': { one: '{count} download left', other: '{count} downloads left' },
  'files.limitReached': 'download limit reached',
  'files.noneReady': 'no file can be downloaded',
  'files.leftOut': 'Left out: {names} ({reason}).',

  'owner.noLimit': 'no limit',
  'owner.folderLimit': 'folder’s: {count}',
  'owner.fileLimitOf': 'Download limit of {name}',
  'owner.saveLimit': 'Save limit',
  'owner.saved': 'Saved',
  'owner.deleteFile': 'Delete file',
  'owner.deleteFileConfirm': 'Delete {name}? Its encrypted bytes are removed from the server for good.',
  'owner.manage': 'Manage',
  'owner.manageNamed': 'Manage {name}',

  'settings.heading': 'Folder settings',
  'settings.until': 'Files are available until {date}.',
  'settings.empty':
    'The folder has no files yet: it is deleted 24 hours after it was made unless something is uploaded.',
  'settings.expiryLabel': 'Keep the files available for (from now)',
  'settings.setExpiry': 'Set',
  'settings.limitLabel': 'Downloads allowed per file (empty: no limit)',
  'settings.saveLimit': 'Save',
  'settings.noteLabel': 'Note to recipients (encrypted like the file names)',
  'settings.saveNote': 'Save note',
  'settings.delete': 'Delete this folder',
  'settings.deleteConfirm': 'Delete this folder and every file in it? This cannot be undone.',
  'settings.deleted': 'Folder deleted',
  'settings.deletedText': 'The folder and its files are gone from the server. Its link no longer works.',
  'settings.newFolder': 'Make a new folder',
  'settings.expiryChanged': 'Expiry changed',
  'settings.limitSaved': 'Download limit saved',
  'settings.noteSaved': 'Note saved',

  'activity.heading': 'Activity',
  'activity.upload': 'Uploaded',
  'activity.download': 'Downloaded',
  'activity.delete': 'Deleted',
  'activity.gone': 'a file no longer here',
  'activity.none': 'Nothing yet.',

  'password.heading': 'This folder needs a password',
  'password.help':
    'Its files are encrypted with the link and a password together. Ask the person who sent you the link for the password.',
  'password.label': 'Password',
  'password.open': 'Open',
  'password.checking': 'Checking the password…',
  'password.wrong': 'Wrong password. The link is right, but this password does not open the folder: try again.',
  'password.failed': 'Could not check the password: {reason}',

  'receipt.heading': 'What you sent',
  'receipt.help':
    'Received by the server, encrypted so that only the owner can open them. This list is kept in this browser only.',
} as const;

type Part = { readonly [K in keyof typeof ownerControlsEn]: Message };

export const ownerControlsDe: Part = {
  'home.modeRequest': 'Anfordern — andere laden zu mir hoch; nur ich kann die Dateien öffnen',
  'home.titleHelp':
    'Ordnertitel sind nicht verschlüsselt: Der Server und alle mit dem Link können sie lesen. Dateinamen, Inhalte und die Notiz sind verschlüsselt.',
  'home.expiryLabel': 'Dateien verfügbar halten für',
  'home.limitLabel': 'Erlaubte Downloads pro Datei (optional)',
  'home.limitHelp': 'Zum Beispiel 1 für einen Einmal-Link. Ihre eigenen Downloads zählen nicht.',
  'home.passwordLabel': 'Passwort (optional)',
  'home.passwordHelp':
    'Empfänger brauchen den Link und dieses Passwort: Schicken Sie es auf anderem Weg. Es kann weder geändert noch wiederhergestellt werden. Wer den Link hat, kann auf dem eigenen Rechner Passwörter ausprobieren (etwa eine Sekunde pro Versuch): Nehmen Sie vier oder mehr zufällige Wörter.',
  'home.noteLabel': 'Notiz an die Empfänger (optional)',
  'home.noteHelp': 'Verschlüsselt wie die Dateinamen.',
  'home.creatingPassword': 'Wird angelegt… (der Schlüssel aus dem Passwort braucht eine Sekunde)',

  'expiry.hours': { one: '{count} Stunde', other: '{count} Stunden' },
  'expiry.days': { one: '{count} Tag', other: '{count} Tage' },

  'folder.firstUploadOwns':
    'Wer zuerst hochlädt, wird Eigentümer dieses Ordners: Nur diese Person kann dann Dateien löschen und Einstellungen ändern. Wenn Ihnen jemand diesen Link zum Befüllen geschickt hat, laden Sie gleich hoch; wenn Sie ihn angelegt haben, laden Sie zuerst hoch und teilen Sie ihn danach.',

  'files.summary': 'Übersicht',
  'files.count': { one: '{count} Datei', other: '{count} Dateien' },
  'files.availableUntil': 'verfügbar bis {date}',
  'files.downloads': { one: '{count} Download', other: '{count} Downloads' },
  'files.downloadsLeft': { one: 'noch {count} Download', other: 'noch {count} Downloads' },
  'files.limitReached': 'Download-Grenze erreicht',
  'files.noneReady': 'keine Datei kann heruntergeladen werden',
  'files.leftOut': 'Ausgelassen: {names} ({reason}).',

  'owner.noLimit': 'keine Grenze',
  'owner.folderLimit': 'wie der Ordner: {count}',
  'owner.fileLimitOf': 'Download-Grenze von {name}',
  'owner.saveLimit': 'Grenze speichern',
  'owner.saved': 'Gespeichert',
  'owner.deleteFile': 'Datei löschen',
  'owner.deleteFileConfirm': '{name} löschen? Die verschlüsselten Daten werden endgültig vom Server entfernt.',
  'owner.manage': 'Verwalten',
  'owner.manageNamed': '{name} verwalten',

  'settings.heading': 'Ordnereinstellungen',
  'settings.until': 'Die Dateien sind bis {date} verfügbar.',
  'settings.empty':
    'Der Ordner hat noch keine Dateien: Er wird 24 Stunden nach dem Anlegen gelöscht, wenn nichts hochgeladen wird.',
  'settings.expiryLabel': 'Dateien verfügbar halten für (ab jetzt)',
  'settings.setExpiry': 'Festlegen',
  'settings.limitLabel': 'Erlaubte Downloads pro Datei (leer: keine Grenze)',
  'settings.saveLimit': 'Speichern',
  'settings.noteLabel': 'Notiz an die Empfänger (verschlüsselt wie die Dateinamen)',
  'settings.saveNote': 'Notiz speichern',
  'settings.delete': 'Diesen Ordner löschen',
  'settings.deleteConfirm': 'Diesen Ordner mit allen Dateien löschen? Das lässt sich nicht rückgängig machen.',
  'settings.deleted': 'Ordner gelöscht',
  'settings.deletedText': 'Der Ordner und seine Dateien sind vom Server entfernt. Sein Link funktioniert nicht mehr.',
  'settings.newFolder': 'Neuen Ordner anlegen',
  'settings.expiryChanged': 'Ablauf geändert',
  'settings.limitSaved': 'Download-Grenze gespeichert',
  'settings.noteSaved': 'Notiz gespeichert',

  'activity.heading': 'Aktivität',
  'activity.upload': 'Hochgeladen',
  'activity.download': 'Heruntergeladen',
  'activity.delete': 'Gelöscht',
  'activity.gone': 'eine nicht mehr vorhandene Datei',
  'activity.none': 'Noch nichts.',

  'password.heading': 'Dieser Ordner braucht ein Passwort',
  'password.help':
    'Seine Dateien sind mit dem Link und einem Passwort zusammen verschlüsselt. Fragen Sie die Person, die Ihnen den Link geschickt hat, nach dem Passwort.',
  'password.label': 'Passwort',
  'password.open': 'Öffnen',
  'password.checking': 'Passwort wird geprüft…',
  'password.wrong':
    'Falsches Passwort. Der Link stimmt, aber dieses Passwort öffnet den Ordner nicht: Versuchen Sie es noch einmal.',
  'password.failed': 'Das Passwort konnte nicht geprüft werden: {reason}',

  'receipt.heading': 'Was Sie gesendet haben',
  'receipt.help':
    'Vom Server empfangen, so verschlüsselt, dass nur der Eigentümer sie öffnen kann. Diese Liste wird nur in diesem Browser aufbewahrt.',
};

export const ownerControlsKo: Part = {
  'home.modeRequest': '요청 — 다른 사람이 나에게 업로드하고, 파일은 나만 열 수 있습니다',
  'home.titleHelp':
    '폴더 제목은 암호화되지 않습니다: 서버와 링크를 가진 누구나 읽을 수 있습니다. 파일 이름, 내용, 메모는 암호화됩니다.',
  'home.expiryLabel': '파일 보관 기간',
  'home.limitLabel': '파일당 허용 다운로드 수 (선택)',
  'home.limitHelp': '예: 일회용 링크라면 1. 내 다운로드는 세지 않습니다.',
  'home.passwordLabel': '비밀번호 (선택)',
  'home.passwordHelp':
    '받는 사람은 링크와 이 비밀번호가 모두 필요합니다: 비밀번호는 다른 경로로 보내세요. 변경하거나 복구할 수 없습니다. 링크를 가진 사람은 자기 컴퓨터에서 비밀번호를 추측해 볼 수 있으므로(한 번에 약 1초) 무작위 단어 네 개 이상을 쓰세요.',
  'home.noteLabel': '받는 사람에게 남길 메모 (선택)',
  'home.noteHelp': '파일 이름처럼 암호화됩니다.',
  'home.creatingPassword': '만드는 중… (비밀번호로 키를 만드는 데 1초 정도 걸립니다)',

  'expiry.hours': { other: '{count}시간' },
  'expiry.days': { other: '{count}일' },

  'folder.firstUploadOwns':
    '가장 먼저 업로드하는 사람이 이 폴더의 소유자가 됩니다: 그 뒤로는 그 사람만 파일을 삭제하고 설정을 바꿀 수 있습니다. 누군가 채워 달라고 이 링크를 보냈다면 바로 업로드하세요. 직접 만든 폴더라면 공유하기 전에 먼저 업로드하세요.',

  'files.summary': '요약',
  'files.count': { other: '파일 {count}개' },
  'files.availableUntil': '{date}까지 이용 가능',
  'files.downloads': { other: '다운로드 {count}회' },
  'files.downloadsLeft': { other: '다운로드 {count}회 남음' },
  'files.limitReached': '다운로드 한도 도달',
  'files.noneReady': '다운로드할 수 있는 파일이 없습니다',
  'files.leftOut': '제외됨: {names} ({reason}).',

  'owner.noLimit': '제한 없음',
  'owner.folderLimit': '폴더 설정: {count}',
  'owner.fileLimitOf': '{name}의 다운로드 한도',
  'owner.saveLimit': '한도 저장',
  'owner.saved': '저장됨',
  'owner.deleteFile': '파일 삭제',
  'owner.deleteFileConfirm': '{name} 파일을 삭제할까요? 암호화된 데이터가 서버에서 영구히 지워집니다.',
  'owner.manage': '관리',
  'owner.manageNamed': '{name} 관리',

  'settings.heading': '폴더 설정',
  'settings.until': '파일은 {date}까지 이용할 수 있습니다.',
  'settings.empty': '아직 파일이 없습니다: 업로드가 없으면 만든 지 24시간 뒤에 삭제됩니다.',
  'settings.expiryLabel': '파일 보관 기간 (지금부터)',
  'settings.setExpiry': '설정',
  'settings.limitLabel': '파일당 허용 다운로드 수 (비우면 제한 없음)',
  'settings.saveLimit': '저장',
  'settings.noteLabel': '받는 사람에게 남길 메모 (파일 이름처럼 암호화됨)',
  'settings.saveNote': '메모 저장',
  'settings.delete': '이 폴더 삭제',
  'settings.deleteConfirm': '이 폴더와 안의 모든 파일을 삭제할까요? 되돌릴 수 없습니다.',
  'settings.deleted': '폴더가 삭제되었습니다',
  'settings.deletedText': '폴더와 파일이 서버에서 지워졌습니다. 링크는 더 이상 작동하지 않습니다.',
  'settings.newFolder': '새 폴더 만들기',
  'settings.expiryChanged': '보관 기간이 바뀌었습니다',
  'settings.limitSaved': '다운로드 한도가 저장되었습니다',
  'settings.noteSaved': '메모가 저장되었습니다',

  'activity.heading': '활동',
  'activity.upload': '업로드',
  'activity.download': '다운로드',
  'activity.delete': '삭제',
  'activity.gone': '더 이상 없는 파일',
  'activity.none': '아직 없습니다.',

  'password.heading': '이 폴더에는 비밀번호가 필요합니다',
  'password.help':
    '파일은 링크와 비밀번호를 함께 써서 암호화되어 있습니다. 링크를 보낸 사람에게 비밀번호를 물어보세요.',
  'password.label': '비밀번호',
  'password.open': '열기',
  'password.checking': '비밀번호를 확인하는 중…',
  'password.wrong': '비밀번호가 틀렸습니다. 링크는 맞지만 이 비밀번호로는 폴더가 열리지 않습니다: 다시 시도하세요.',
  'password.failed': '비밀번호를 확인할 수 없습니다: {reason}',

  'receipt.heading': '보낸 파일',
  'receipt.help': '서버가 받았으며, 소유자만 열 수 있도록 암호화되어 있습니다. 이 목록은 이 브라우저에만 보관됩니다.',
};
