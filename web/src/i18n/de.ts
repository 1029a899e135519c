import type { Catalog } from './catalog.js';
import { ownerControlsDe } from './owner-controls.js';

/** Die Wörter der Seite auf Deutsch (Schlüssel und Parameter wie en.ts). */
export const de: Catalog = {
  'site.tagline': 'Ende-zu-Ende-verschlüsselte Dateiübertragung',
  'site.skip': 'Zum Inhalt springen',
  'site.imprint': 'Impressum',
  'site.privacy': 'Datenschutz',
  'site.loading': 'Wird geladen…',
  'site.language': 'Sprache',

  'duration.seconds': '{s} s',
  'duration.minutes': '{m} min {s} s',
  'duration.hours': '{h} Std. {m} min',

  'error.network': 'Der Server ist nicht erreichbar: Prüfen Sie Ihre Verbindung',
  'error.newFolder': 'Neuen Ordner anlegen',
  'error.pageNotFound': 'Seite nicht gefunden',
  'error.pageNotFoundText': 'Unter dieser Adresse gibt es nichts.',
  'error.expired': 'Dieser Ordner ist abgelaufen',
  'error.expiredText':
    'Dieser Ordner ist abgelaufen, seine Dateien sind gelöscht. Leere Ordner werden 24 Stunden nach dem Anlegen gelöscht, Dateien am Ende ihrer Downloadfrist.',
  'error.folderNotFound': 'Ordner nicht gefunden',
  'error.folderNotFoundText':
    'Diesen Ordner gibt es nicht. Vielleicht ist er abgelaufen (leere Ordner werden nach 24 Stunden gelöscht, Dateien am Ende ihrer Downloadfrist) oder wurde gelöscht, oder der Link ist falsch abgeschrieben.',
  'error.noKey': 'Diesem Link fehlt der Schlüssel',
  'error.noKeyText':
    'Dem Link fehlt sein Schlüssel: der Teil nach dem # am Ende. Bitten Sie um den vollständigen Link; der Server kennt den Schlüssel nie und kann ihn daher nicht wiederherstellen.',
  'error.badKey': 'Der Schlüssel dieses Links ist beschädigt',
  'error.badKeyText':
    'Der Schlüssel am Ende des Links (nach dem #) ist ungültig. Kopieren Sie den ganzen Link noch einmal.',
  'error.wrongKey': 'Falscher Schlüssel für diesen Ordner',
  'error.wrongKeyText':
    'Der Schlüssel am Ende dieses Links (nach dem #) öffnet diesen Ordner nicht. Prüfen Sie, ob Sie den ganzen Link kopiert haben.',
  'error.failed': 'Etwas ist schiefgegangen',

  'home.heading': 'Dateien senden, Ende-zu-Ende-verschlüsselt',
  'home.intro':
    'Dateien werden in Ihrem Browser verschlüsselt, bevor sie ihn verlassen. Der Schlüssel ist der Teil des Links nach dem #: Der Server sieht ihn nie.',
  'home.newFolder': 'Neuer Ordner',
  'home.titleLabel': 'Titel (optional)',
  'home.modeLabel': 'Wer darf was',
  'home.modeSend': 'Senden — ich lade hoch, andere laden herunter',
  'home.modeShare': 'Teilen — alle laden hoch und herunter',
  'home.create': 'Ordner anlegen',
  'home.creating': 'Wird angelegt…',
  'home.createFailed': 'Der Ordner konnte nicht angelegt werden: {reason}',
  'home.docs': 'Programme und Agenten: siehe die {link}.',
  'home.docsLink': 'Dokumentation',

  'mode.send': 'Senden: Der Eigentümer lädt hoch, alle mit dem Link laden herunter.',
  'mode.share': 'Teilen: Alle mit dem Link laden hoch und herunter.',
  'mode.request': 'Anfordern: Besucher laden hoch; nur der Eigentümer kann die Dateien sehen und herunterladen.',
  'role.owner': 'Dieser Ordner gehört Ihnen.',
  'role.visitor': 'Sie sind Besucher.',
  'role.unclaimed': 'Dieser Ordner gehört noch niemandem: Wer zuerst hochlädt, wird sein Eigentümer.',
  'folder.deadline': 'Dieser Ordner ist leer. Laden Sie innerhalb von {time} etwas hoch, sonst wird er gelöscht.',
  'folder.deadlinePick': 'Wählen Sie unten Dateien aus oder ziehen Sie sie hierher.',
  'folder.noList':
    'Nur der Eigentümer dieses Ordners kann seine Dateien sehen und herunterladen. Was Sie hochladen, wird so verschlüsselt, dass nur der Eigentümer es öffnen kann — nicht einmal andere Besucher mit diesem Link.',
  'session.nowOwner': 'Dieser Ordner gehört jetzt Ihnen.',
  'session.someoneElse': 'Jemand anderes hat zuerst hochgeladen und ist Eigentümer dieses Ordners.',

  'share.heading': 'Teilen',
  'share.copied': 'In die Zwischenablage kopiert',
  'share.copiedButton': 'Kopiert',
  'share.copyFailed': 'Kopieren fehlgeschlagen: Markieren und kopieren Sie den Text',
  'share.copyFailedButton': 'Text markieren und kopieren',
  'share.anyoneRequest': 'Alle mit diesem Link können in diesen Ordner hochladen.',
  'share.anyoneShare': 'Alle mit diesem Link können hoch- und herunterladen.',
  'share.anyoneSend': 'Alle mit diesem Link können die Dateien herunterladen.',
  'share.linkLabel': 'Link zum Teilen',
  'share.copy': 'Link kopieren',
  'share.qr': 'QR-Code',
  'share.qrLabel': 'QR-Code des Links zum Teilen',
  'share.email': 'Per E-Mail senden',
  'share.emailSubject': 'Dateien für Sie: {title}',
  'share.emailSubjectRequest': 'Bitte laden Sie Ihre Dateien hoch: {title}',
  'share.emailBody':
    'Hier können Sie die Dateien herunterladen:\n{link}\n\nDer Link enthält den Schlüssel zu den Dateien (den Teil nach #): Alle, die ihn haben, können sie herunterladen.',
  'share.emailBodyRequest':
    'Laden Sie Ihre Dateien hier hoch:\n{link}\n\nSie werden in Ihrem Browser verschlüsselt, bevor sie ihn verlassen.',
  'share.sheet': 'Teilen…',
  'share.sheetFailed': 'Teilen fehlgeschlagen: Kopieren Sie stattdessen den Link',
  'owner.heading': 'Eigentümer-Schlüssel sichern',
  'owner.help':
    'Das ist nicht der Link zum Teilen. Wer ihn hat, verfügt über diesen Ordner: kann Dateien löschen und Einstellungen ändern. Dieser Browser merkt sich, dass Ihnen der Ordner gehört; bewahren Sie den Schlüssel privat auf (in einem Passwort-Manager), um die Eigentümerschaft in einem anderen Browser wiederherzustellen, oder hier, falls Browserdaten gelöscht werden.',
  'owner.linkLabel': 'Eigentümer-Schlüssel (ein Link)',
  'owner.copy': 'Eigentümer-Schlüssel kopieren',

  'notify.heading': 'Benachrichtigungen',
  'notify.private':
    'Nur Sie sehen das. Der Server speichert die Adresse, solange es den Ordner gibt, und löscht sie mit ihm.',
  'notify.reading': 'Aktuelle Einstellung wird gelesen…',
  'notify.save': 'Speichern',
  'notify.stop': 'Benachrichtigungen beenden',
  'notify.email': 'E-Mail-Adresse',
  'notify.onDownload': 'wenn jemand eine Datei herunterlädt',
  'notify.onUpload': 'wenn jemand eine Datei hochlädt',
  'notify.off': 'Benachrichtigungen sind aus.',
  'notify.on': 'Sie werden über {events} benachrichtigt, an {to}.',
  'notify.eventsDownload': 'Downloads',
  'notify.eventsUpload': 'Uploads',
  'notify.eventsBoth': 'Downloads und Uploads',
  'notify.toWebhook': 'Ihren Webhook',
  'notify.toBoth': '{email} und Ihren Webhook',
  'notify.loaded': 'Benachrichtigungseinstellung geladen',
  'notify.saved': 'Benachrichtigungen gespeichert',
  'notify.stopped': 'Benachrichtigungen beendet',

  'upload.heading': 'Hochladen',
  'upload.drop': 'Dateien oder Ordner hierher ziehen, oder',
  'upload.chooseFiles': 'Dateien auswählen',
  'upload.chooseFolder': 'Ordner auswählen',
  'upload.resume': {
    one: 'Ein Upload wurde nicht fertig ({names}). Wählen Sie dieselbe Datei noch einmal, um nur die fehlenden Teile zu senden.',
    other:
      '{count} Uploads wurden nicht fertig ({names}). Wählen Sie dieselben Dateien noch einmal, um nur die fehlenden Teile zu senden.',
  },
  'upload.emptySkipped': {
    one: 'Eine leere Datei wurde übersprungen: Leere Dateien können nicht hochgeladen werden.',
    other: '{count} leere Dateien wurden übersprungen: Leere Dateien können nicht hochgeladen werden.',
  },
  'upload.encrypting': 'Dateinamen werden verschlüsselt…',
  'upload.failed': 'Hochladen fehlgeschlagen: {reason}',
  'upload.someFailed': {
    one: 'Eine Datei ist fehlgeschlagen. Wählen Sie sie noch einmal: Nur die fehlenden Teile werden gesendet.',
    other: '{count} Dateien sind fehlgeschlagen. Wählen Sie sie noch einmal: Nur die fehlenden Teile werden gesendet.',
  },
  'upload.cancelled':
    'Hochladen abgebrochen. Wählen Sie dieselben Dateien noch einmal, um dort weiterzumachen, wo es aufgehört hat.',
  'upload.complete': { one: 'Hochladen fertig: {count} Datei.', other: 'Hochladen fertig: {count} Dateien.' },
  'upload.waitSlow': 'Warten: Der Server bittet um eine Pause; neuer Versuch in {seconds} s',
  'upload.waitNoAnswer': 'Warten: Der Server hat nicht geantwortet; neuer Versuch in {seconds} s',
  'upload.waitOffline':
    'Warten: Dieses Gerät ist offline; neuer Versuch in {seconds} s. Der Upload geht weiter, sobald die Verbindung wieder da ist.',
  'upload.overall': 'Gesamtfortschritt des Uploads',
  'upload.cancel': 'Hochladen abbrechen',
  'upload.progressOf': 'Fortschritt von {name}',
  'upload.summary': {
    one: '{done} von {count} Datei · {sent} von {total} · {speed}/s · noch {eta}',
    other: '{done} von {count} Dateien · {sent} von {total} · {speed}/s · noch {eta}',
  },
  'upload.fileFailed': 'fehlgeschlagen: {reason}',
  'upload.fileDone': 'fertig',
  'upload.fileCancelled': 'abgebrochen',

  'files.heading': 'Dateien',
  'files.downloadAll': 'Alle herunterladen (.zip)',
  'files.downloadFailed': 'Download fehlgeschlagen: {reason}',
  'files.starting': 'Download von {name} startet…',
  'files.savingSw':
    'Ihr Browser speichert {name}: Den Fortschritt zeigt seine Download-Liste. Die Datei wird beim Empfang entschlüsselt.',
  'files.savedSw':
    '{name} heruntergeladen. Die Datei wurde beim Empfang entschlüsselt; Ihr Browser hat sie gespeichert.',
  'files.downloadedMemory':
    '{name} heruntergeladen. Dieser Browser kann Downloads nicht streamen (kein Service Worker), daher wurde die Datei im Arbeitsspeicher zusammengesetzt.',
  'files.loadingMore': 'Weitere Dateien werden geladen…',
  'files.sealed': 'Für den Eigentümer verschlüsselt',
  'files.undecryptable': 'Name kann nicht entschlüsselt werden',
  'files.downloadNamed': '{name} herunterladen',
  'files.download': 'Herunterladen',
  'files.uploading': 'Wird hochgeladen…',
  'files.incomplete': 'Unvollständig',
  'files.loadFailed': 'Die Dateien konnten nicht geladen werden: {reason}',
  'files.empty': 'Noch keine Dateien.',

  'viewer.previous': 'Vorherige Datei',
  'viewer.next': 'Nächste Datei',
  'viewer.download': 'Herunterladen',
  'viewer.close': 'Ansicht schließen',
  'viewer.decrypting': 'Wird entschlüsselt…',
  'viewer.cannotShow': 'Diese Datei kann hier nicht angezeigt werden.',
  'viewer.downloadSized': '{name} herunterladen ({size})',
  'viewer.failed': 'Diese Datei konnte nicht angezeigt werden: {reason}',
  'viewer.noWorker': 'Der Service Worker hat nicht geantwortet',
  'viewer.cannotPlay': 'Dieser Browser kann diese Datei nicht abspielen.',
  'viewer.cannotImage': 'Dieser Browser kann dieses Bild nicht anzeigen.',
  'viewer.tooLarge': 'zu groß zum Anzeigen',
  'viewer.position': '{index} von {count}',
  ...ownerControlsDe,
};
