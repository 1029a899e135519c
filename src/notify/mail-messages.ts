import type { SiteLanguage } from '../domain/site-languages.js';

/**
 * The mails' words in every language the site speaks (the page's catalogs are web/src/i18n/messages;
 * a mail is composed on the server, which cannot read those). ICU MessageFormat, as the page's;
 * test/unit/mail-language.test.ts checks each language's arguments against English's and its own
 * plural forms. The confirmation is in the language of the page it was asked from, the owner's
 * digests in the one stored with the folder's notification settings (docs/translations.md).
 */
export const MAIL_MESSAGES = {
  en: {
    'confirm.subject': '{site}: confirm notifications to this address',
    'confirm.body':
      'Someone asked {site} to send notifications about a shared folder to this address.\nNothing is sent to it unless you confirm:\n\nConfirm: {confirmUrl}\n({hours, plural, one {valid for # hour} other {valid for # hours}})\n\nIf you did not ask for this, ignore this mail: you will get nothing more. To refuse all mail\nfrom {site} at this address, now and later: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Files were downloaded from your folder} uploaded {Files were uploaded to your folder} other {Activity in your folder}}',
    'digest.body':
      'Since {since}: {downloads, plural, one {# download} other {# downloads}} and {uploads, plural, one {# upload completed} other {# uploads completed}} in your folder.\n{first, select, downloaded {First: a file ({size}) was downloaded at {time}.} other {First: a file ({size}) was uploaded at {time}.}}\n\nFolder: {folderUrl}\nOpen it with your own link (it holds the key) to see its activity list or to turn notifications off.\nNotifications are gathered into one mail like this one, at most one per digest period.\n\nTo get no more mail from {site} at this address, for any folder: {refuseUrl}\n',
  },
  de: {
    'confirm.subject': '{site}: Benachrichtigungen an diese Adresse bestätigen',
    'confirm.body':
      'Jemand hat {site} gebeten, Benachrichtigungen über einen geteilten Ordner an diese Adresse zu senden.\nEs wird nichts gesendet, solange Sie nicht bestätigen:\n\nBestätigen: {confirmUrl}\n({hours, plural, one {gültig für # Stunde} other {gültig für # Stunden}})\n\nWenn Sie das nicht angefordert haben, ignorieren Sie diese Mail: Sie erhalten nichts weiter. Um alle Mails\nvon {site} an diese Adresse abzulehnen, jetzt und künftig: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Dateien wurden aus Ihrem Ordner heruntergeladen} uploaded {Dateien wurden in Ihren Ordner hochgeladen} other {Aktivität in Ihrem Ordner}}',
    'digest.body':
      'Seit {since}: {downloads, plural, one {# Download} other {# Downloads}} und {uploads, plural, one {# Upload abgeschlossen} other {# Uploads abgeschlossen}} in Ihrem Ordner.\n{first, select, downloaded {Zuerst: Eine Datei ({size}) wurde am {time} heruntergeladen.} other {Zuerst: Eine Datei ({size}) wurde am {time} hochgeladen.}}\n\nOrdner: {folderUrl}\nÖffnen Sie ihn mit Ihrem eigenen Link (er enthält den Schlüssel), um seine Aktivitätsliste zu sehen oder die Benachrichtigungen abzuschalten.\nBenachrichtigungen werden in einer Mail wie dieser gesammelt, höchstens eine pro Sammelzeitraum.\n\nUm von {site} an diese Adresse keine Mails mehr zu erhalten, für keinen Ordner: {refuseUrl}\n',
  },
  es: {
    'confirm.subject': '{site}: confirma las notificaciones a esta dirección',
    'confirm.body':
      'Alguien pidió a {site} que enviara a esta dirección notificaciones sobre una carpeta compartida.\nNo se enviará nada a menos que lo confirmes:\n\nConfirmar: {confirmUrl}\n({hours, plural, one {válido durante # hora} many {válido durante # horas} other {válido durante # horas}})\n\nSi no lo pediste, ignora este correo: no recibirás nada más. Para rechazar todo el correo\nde {site} en esta dirección, ahora y en el futuro: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Se descargaron archivos de tu carpeta} uploaded {Se subieron archivos a tu carpeta} other {Actividad en tu carpeta}}',
    'digest.body':
      'Desde {since}: {downloads, plural, one {# descarga} many {# descargas} other {# descargas}} y {uploads, plural, one {# subida completada} many {# subidas completadas} other {# subidas completadas}} en tu carpeta.\n{first, select, downloaded {Primero: se descargó un archivo ({size}) el {time}.} other {Primero: se subió un archivo ({size}) el {time}.}}\n\nCarpeta: {folderUrl}\nÁbrela con tu propio enlace (contiene la clave) para ver su lista de actividad o desactivar las notificaciones.\nLas notificaciones se reúnen en un solo correo como este, como mucho uno por periodo de resumen.\n\nPara no recibir más correo de {site} en esta dirección, de ninguna carpeta: {refuseUrl}\n',
  },
  fr: {
    'confirm.subject': '{site} : confirmez les notifications à cette adresse',
    'confirm.body':
      'Quelqu’un a demandé à {site} d’envoyer à cette adresse des notifications sur un dossier partagé.\nRien n’y est envoyé tant que vous ne confirmez pas :\n\nConfirmer : {confirmUrl}\n({hours, plural, one {valable # heure} many {valable # heures} other {valable # heures}})\n\nSi vous n’avez rien demandé, ignorez ce message : vous ne recevrez rien d’autre. Pour refuser tout courriel\nde {site} à cette adresse, maintenant et plus tard : {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Des fichiers ont été téléchargés depuis votre dossier} uploaded {Des fichiers ont été déposés dans votre dossier} other {Activité dans votre dossier}}',
    'digest.body':
      'Depuis le {since} : {downloads, plural, one {# téléchargement} many {# téléchargements} other {# téléchargements}} et {uploads, plural, one {# dépôt terminé} many {# dépôts terminés} other {# dépôts terminés}} dans votre dossier.\n{first, select, downloaded {Le premier : un fichier ({size}) a été téléchargé le {time}.} other {Le premier : un fichier ({size}) a été déposé le {time}.}}\n\nDossier : {folderUrl}\nOuvrez-le avec votre propre lien (il contient la clé) pour voir la liste de son activité ou désactiver les notifications.\nLes notifications sont regroupées dans un seul message comme celui-ci, au plus un par période de regroupement.\n\nPour ne plus recevoir de courriel de {site} à cette adresse, pour aucun dossier : {refuseUrl}\n',
  },
  it: {
    'confirm.subject': '{site}: conferma le notifiche a questo indirizzo',
    'confirm.body':
      'Qualcuno ha chiesto a {site} di inviare a questo indirizzo notifiche su una cartella condivisa.\nNon verrà inviato nulla finché non confermi:\n\nConferma: {confirmUrl}\n({hours, plural, one {valido per # ora} many {valido per # ore} other {valido per # ore}})\n\nSe non l’hai chiesto tu, ignora questa email: non riceverai altro. Per rifiutare tutte le email\nda {site} a questo indirizzo, ora e in futuro: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Sono stati scaricati file dalla tua cartella} uploaded {Sono stati caricati file nella tua cartella} other {Attività nella tua cartella}}',
    'digest.body':
      'Dal {since}: {downloads, plural, one {# download} many {# download} other {# download}} e {uploads, plural, one {# caricamento completato} many {# caricamenti completati} other {# caricamenti completati}} nella tua cartella.\n{first, select, downloaded {Il primo: un file ({size}) è stato scaricato il {time}.} other {Il primo: un file ({size}) è stato caricato il {time}.}}\n\nCartella: {folderUrl}\nAprila con il tuo link (contiene la chiave) per vedere l’elenco delle attività o disattivare le notifiche.\nLe notifiche sono raccolte in un’unica email come questa, al massimo una per periodo di riepilogo.\n\nPer non ricevere più email da {site} a questo indirizzo, per nessuna cartella: {refuseUrl}\n',
  },
  nl: {
    'confirm.subject': '{site}: bevestig meldingen aan dit adres',
    'confirm.body':
      'Iemand heeft {site} gevraagd meldingen over een gedeelde map naar dit adres te sturen.\nEr wordt niets verstuurd tenzij je bevestigt:\n\nBevestigen: {confirmUrl}\n({hours, plural, one {# uur geldig} other {# uur geldig}})\n\nHeb je dit niet gevraagd, negeer dan deze mail: je krijgt verder niets. Om alle mail\nvan {site} aan dit adres te weigeren, nu en later: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Er zijn bestanden uit je map gedownload} uploaded {Er zijn bestanden naar je map geüpload} other {Activiteit in je map}}',
    'digest.body':
      'Sinds {since}: {downloads, plural, one {# download} other {# downloads}} en {uploads, plural, one {# upload voltooid} other {# uploads voltooid}} in je map.\n{first, select, downloaded {Als eerste: een bestand ({size}) is gedownload op {time}.} other {Als eerste: een bestand ({size}) is geüpload op {time}.}}\n\nMap: {folderUrl}\nOpen hem met je eigen link (die bevat de sleutel) om de activiteitenlijst te zien of meldingen uit te zetten.\nMeldingen worden verzameld in één mail zoals deze, hoogstens één per verzamelperiode.\n\nOm van {site} geen mail meer aan dit adres te krijgen, voor geen enkele map: {refuseUrl}\n',
  },
  pl: {
    'confirm.subject': '{site}: potwierdź powiadomienia na ten adres',
    'confirm.body':
      'Ktoś poprosił {site} o wysyłanie na ten adres powiadomień o udostępnionym folderze.\nNic nie zostanie wysłane, dopóki nie potwierdzisz:\n\nPotwierdź: {confirmUrl}\n({hours, plural, one {ważne przez # godzinę} few {ważne przez # godziny} many {ważne przez # godzin} other {ważne przez # godziny}})\n\nJeśli to nie Ty, zignoruj tę wiadomość: nic więcej nie dostaniesz. Aby odrzucić wszelką pocztę\nod {site} na ten adres, teraz i w przyszłości: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Pobrano pliki z Twojego folderu} uploaded {Przesłano pliki do Twojego folderu} other {Aktywność w Twoim folderze}}',
    'digest.body':
      'Od {since}: {downloads, plural, one {# pobranie} few {# pobrania} many {# pobrań} other {# pobrania}} i {uploads, plural, one {# zakończone przesłanie} few {# zakończone przesłania} many {# zakończonych przesłań} other {# zakończonego przesłania}} w Twoim folderze.\n{first, select, downloaded {Najpierw: plik ({size}) został pobrany {time}.} other {Najpierw: plik ({size}) został przesłany {time}.}}\n\nFolder: {folderUrl}\nOtwórz go własnym linkiem (zawiera klucz), aby zobaczyć listę aktywności lub wyłączyć powiadomienia.\nPowiadomienia są zbierane w jedną wiadomość taką jak ta, najwyżej jedną na okres zbierania.\n\nAby nie dostawać już poczty od {site} na ten adres, dla żadnego folderu: {refuseUrl}\n',
  },
  'pt-BR': {
    'confirm.subject': '{site}: confirme as notificações para este endereço',
    'confirm.body':
      'Alguém pediu a {site} que enviasse para este endereço notificações sobre uma pasta compartilhada.\nNada é enviado a menos que você confirme:\n\nConfirmar: {confirmUrl}\n({hours, plural, one {válido por # hora} many {válido por # horas} other {válido por # horas}})\n\nSe você não pediu isso, ignore este e-mail: não receberá mais nada. Para recusar todo e-mail\nde {site} neste endereço, agora e depois: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Arquivos foram baixados da sua pasta} uploaded {Arquivos foram enviados para a sua pasta} other {Atividade na sua pasta}}',
    'digest.body':
      'Desde {since}: {downloads, plural, one {# download} many {# downloads} other {# downloads}} e {uploads, plural, one {# envio concluído} many {# envios concluídos} other {# envios concluídos}} na sua pasta.\n{first, select, downloaded {Primeiro: um arquivo ({size}) foi baixado em {time}.} other {Primeiro: um arquivo ({size}) foi enviado em {time}.}}\n\nPasta: {folderUrl}\nAbra-a com o seu próprio link (ele contém a chave) para ver a lista de atividades ou desativar as notificações.\nAs notificações são reunidas em um único e-mail como este, no máximo um por período de resumo.\n\nPara não receber mais e-mails de {site} neste endereço, de nenhuma pasta: {refuseUrl}\n',
  },
  'pt-PT': {
    'confirm.subject': '{site}: confirme as notificações para este endereço',
    'confirm.body':
      'Alguém pediu a {site} que enviasse para este endereço notificações sobre uma pasta partilhada.\nNada é enviado a menos que confirme:\n\nConfirmar: {confirmUrl}\n({hours, plural, one {válido durante # hora} many {válido durante # horas} other {válido durante # horas}})\n\nSe não pediu isto, ignore este e-mail: não receberá mais nada. Para recusar todo o correio\nde {site} neste endereço, agora e no futuro: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Foram transferidos ficheiros da sua pasta} uploaded {Foram carregados ficheiros para a sua pasta} other {Atividade na sua pasta}}',
    'digest.body':
      'Desde {since}: {downloads, plural, one {# transferência} many {# transferências} other {# transferências}} e {uploads, plural, one {# carregamento concluído} many {# carregamentos concluídos} other {# carregamentos concluídos}} na sua pasta.\n{first, select, downloaded {Primeiro: um ficheiro ({size}) foi transferido em {time}.} other {Primeiro: um ficheiro ({size}) foi carregado em {time}.}}\n\nPasta: {folderUrl}\nAbra-a com a sua própria ligação (contém a chave) para ver a lista de atividade ou desativar as notificações.\nAs notificações são reunidas num único e-mail como este, no máximo um por período de resumo.\n\nPara não receber mais correio de {site} neste endereço, de nenhuma pasta: {refuseUrl}\n',
  },
  ja: {
    'confirm.subject': '{site}: このアドレスへの通知を確認してください',
    'confirm.body':
      '{site} に、共有フォルダーについての通知をこのアドレスへ送るよう依頼がありました。\n確認されるまで何も送られません:\n\n確認する: {confirmUrl}\n({hours, plural, other {# 時間有効}})\n\n心当たりがなければ、このメールは無視してください。これ以上何も届きません。{site} からこのアドレスへの\nすべてのメールを今後も含めて拒否するには: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {フォルダーからファイルがダウンロードされました} uploaded {フォルダーにファイルがアップロードされました} other {フォルダーでのアクティビティ}}',
    'digest.body':
      '{since} 以降、フォルダーで {downloads, plural, other {ダウンロード # 件}}、{uploads, plural, other {完了したアップロード # 件}} がありました。\n{first, select, downloaded {最初: ファイル ({size}) が {time} にダウンロードされました。} other {最初: ファイル ({size}) が {time} にアップロードされました。}}\n\nフォルダー: {folderUrl}\n自分のリンク (鍵を含みます) で開くと、アクティビティの一覧を見たり通知をオフにしたりできます。\n通知はこのような 1 通のメールにまとめられ、まとめる期間ごとに最大 1 通です。\n\nどのフォルダーについても {site} からこのアドレスへのメールを今後受け取らないには: {refuseUrl}\n',
  },
  ko: {
    'confirm.subject': '{site}: 이 주소로 보내는 알림을 확인하세요',
    'confirm.body':
      '누군가 {site}에 공유 폴더에 관한 알림을 이 주소로 보내 달라고 요청했습니다.\n확인하기 전에는 아무것도 보내지 않습니다.\n\n확인: {confirmUrl}\n({hours, plural, other {#시간 동안 유효}})\n\n요청한 적이 없다면 이 메일을 무시하세요. 더 이상 아무것도 받지 않습니다. {site}에서 이 주소로 오는\n모든 메일을 지금부터 거부하려면: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {폴더에서 파일이 다운로드되었습니다} uploaded {폴더에 파일이 업로드되었습니다} other {폴더 활동}}',
    'digest.body':
      '{since} 이후 폴더에서: 다운로드 {downloads, plural, other {#건}}, 완료된 업로드 {uploads, plural, other {#건}}.\n{first, select, downloaded {처음: 파일({size})이 {time}에 다운로드되었습니다.} other {처음: 파일({size})이 {time}에 업로드되었습니다.}}\n\n폴더: {folderUrl}\n내 링크(키가 들어 있음)로 열면 활동 목록을 보거나 알림을 끌 수 있습니다.\n알림은 이 메일처럼 한 통으로 모이며, 모음 기간마다 최대 한 통입니다.\n\n어떤 폴더에 대해서도 {site}에서 이 주소로 더 이상 메일을 받지 않으려면: {refuseUrl}\n',
  },
  'zh-Hans': {
    'confirm.subject': '{site}：确认向此地址发送通知',
    'confirm.body':
      '有人请求 {site} 向此地址发送某个共享文件夹的通知。\n在你确认之前，不会向此地址发送任何内容：\n\n确认：{confirmUrl}\n（{hours, plural, other {# 小时内有效}}）\n\n如果不是你本人请求的，请忽略此邮件：你不会再收到任何内容。如需拒绝 {site}\n现在及以后发往此地址的所有邮件：{refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {有人从你的文件夹下载了文件} uploaded {有人向你的文件夹上传了文件} other {你的文件夹有新动态}}',
    'digest.body':
      '自 {since} 起，你的文件夹中有 {downloads, plural, other {# 次下载}}、{uploads, plural, other {# 次完成的上传}}。\n{first, select, downloaded {第一次：一个文件（{size}）于 {time} 被下载。} other {第一次：一个文件（{size}）于 {time} 被上传。}}\n\n文件夹：{folderUrl}\n用你自己的链接（其中含有密钥）打开它，可查看活动列表或关闭通知。\n通知会汇总成一封像这样的邮件，每个汇总周期最多一封。\n\n若不想再在此地址收到 {site} 关于任何文件夹的邮件：{refuseUrl}\n',
  },
  'zh-Hant': {
    'confirm.subject': '{site}：確認向此地址傳送通知',
    'confirm.body':
      '有人請 {site} 向此地址傳送某個共享資料夾的通知。\n在你確認之前，不會向此地址傳送任何內容：\n\n確認：{confirmUrl}\n（{hours, plural, other {# 小時內有效}}）\n\n如果不是你本人提出的，請忽略此郵件：你不會再收到任何內容。如要拒絕 {site}\n現在及以後寄往此地址的所有郵件：{refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {有人從你的資料夾下載了檔案} uploaded {有人向你的資料夾上傳了檔案} other {你的資料夾有新動態}}',
    'digest.body':
      '自 {since} 起，你的資料夾中有 {downloads, plural, other {# 次下載}}、{uploads, plural, other {# 次完成的上傳}}。\n{first, select, downloaded {第一次：一個檔案（{size}）於 {time} 被下載。} other {第一次：一個檔案（{size}）於 {time} 被上傳。}}\n\n資料夾：{folderUrl}\n用你自己的連結（其中含有金鑰）開啟它，可查看活動清單或關閉通知。\n通知會彙整成一封像這樣的郵件，每個彙整週期最多一封。\n\n若不想再在此地址收到 {site} 關於任何資料夾的郵件：{refuseUrl}\n',
  },
  sv: {
    'confirm.subject': '{site}: bekräfta aviseringar till den här adressen',
    'confirm.body':
      'Någon bad {site} att skicka aviseringar om en delad mapp till den här adressen.\nIngenting skickas om du inte bekräftar:\n\nBekräfta: {confirmUrl}\n({hours, plural, one {giltig i # timme} other {giltig i # timmar}})\n\nOm du inte bad om detta kan du strunta i det här mejlet: du får inget mer. För att avböja all e-post\nfrån {site} till den här adressen, nu och senare: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Filer har laddats ned från din mapp} uploaded {Filer har laddats upp till din mapp} other {Aktivitet i din mapp}}',
    'digest.body':
      'Sedan {since}: {downloads, plural, one {# nedladdning} other {# nedladdningar}} och {uploads, plural, one {# slutförd uppladdning} other {# slutförda uppladdningar}} i din mapp.\n{first, select, downloaded {Först: en fil ({size}) laddades ned {time}.} other {Först: en fil ({size}) laddades upp {time}.}}\n\nMapp: {folderUrl}\nÖppna den med din egen länk (den innehåller nyckeln) för att se aktivitetslistan eller stänga av aviseringarna.\nAviseringar samlas i ett mejl som detta, högst ett per samlingsperiod.\n\nFör att inte få fler mejl från {site} till den här adressen, för någon mapp: {refuseUrl}\n',
  },
  da: {
    'confirm.subject': '{site}: bekræft notifikationer til denne adresse',
    'confirm.body':
      'Nogen har bedt {site} om at sende notifikationer om en delt mappe til denne adresse.\nDer sendes intet, medmindre du bekræfter:\n\nBekræft: {confirmUrl}\n({hours, plural, one {gyldig i # time} other {gyldig i # timer}})\n\nHvis du ikke har bedt om det, kan du se bort fra denne mail: du får ikke mere. For at afvise al post\nfra {site} til denne adresse, nu og fremover: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Der er hentet filer fra din mappe} uploaded {Der er uploadet filer til din mappe} other {Aktivitet i din mappe}}',
    'digest.body':
      'Siden {since}: {downloads, plural, one {# download} other {# downloads}} og {uploads, plural, one {# fuldført upload} other {# fuldførte uploads}} i din mappe.\n{first, select, downloaded {Først: en fil ({size}) blev hentet {time}.} other {Først: en fil ({size}) blev uploadet {time}.}}\n\nMappe: {folderUrl}\nÅbn den med dit eget link (det indeholder nøglen) for at se aktivitetslisten eller slå notifikationerne fra.\nNotifikationer samles i én mail som denne, højst én pr. samleperiode.\n\nFor ikke at få mere mail fra {site} på denne adresse, for nogen mappe: {refuseUrl}\n',
  },
  nb: {
    'confirm.subject': '{site}: bekreft varsler til denne adressen',
    'confirm.body':
      'Noen ba {site} sende varsler om en delt mappe til denne adressen.\nIngenting sendes med mindre du bekrefter:\n\nBekreft: {confirmUrl}\n({hours, plural, one {gyldig i # time} other {gyldig i # timer}})\n\nHvis du ikke ba om dette, kan du se bort fra denne e-posten: du får ikke mer. For å avvise all e-post\nfra {site} til denne adressen, nå og senere: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Filer er lastet ned fra mappen din} uploaded {Filer er lastet opp til mappen din} other {Aktivitet i mappen din}}',
    'digest.body':
      'Siden {since}: {downloads, plural, one {# nedlasting} other {# nedlastinger}} og {uploads, plural, one {# fullført opplasting} other {# fullførte opplastinger}} i mappen din.\n{first, select, downloaded {Først: en fil ({size}) ble lastet ned {time}.} other {Først: en fil ({size}) ble lastet opp {time}.}}\n\nMappe: {folderUrl}\nÅpne den med din egen lenke (den inneholder nøkkelen) for å se aktivitetslisten eller slå av varslene.\nVarsler samles i én e-post som denne, høyst én per samleperiode.\n\nFor å ikke få mer e-post fra {site} til denne adressen, for noen mappe: {refuseUrl}\n',
  },
  fi: {
    'confirm.subject': '{site}: vahvista ilmoitukset tähän osoitteeseen',
    'confirm.body':
      'Joku pyysi palvelua {site} lähettämään tähän osoitteeseen ilmoituksia jaetusta kansiosta.\nMitään ei lähetetä, ellet vahvista:\n\nVahvista: {confirmUrl}\n({hours, plural, one {voimassa # tunnin ajan} other {voimassa # tuntia}})\n\nJos et pyytänyt tätä, voit jättää viestin huomiotta: et saa muuta. Kieltäytyäksesi kaikesta postista\npalvelulta {site} tähän osoitteeseen, nyt ja myöhemmin: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Kansiostasi ladattiin tiedostoja} uploaded {Kansioosi lähetettiin tiedostoja} other {Toimintaa kansiossasi}}',
    'digest.body':
      '{since} lähtien kansiossasi: {downloads, plural, one {# lataus} other {# latausta}} ja {uploads, plural, one {# valmis lähetys} other {# valmista lähetystä}}.\n{first, select, downloaded {Ensin: tiedosto ({size}) ladattiin {time}.} other {Ensin: tiedosto ({size}) lähetettiin {time}.}}\n\nKansio: {folderUrl}\nAvaa se omalla linkilläsi (siinä on avain) nähdäksesi sen toimintalistan tai poistaaksesi ilmoitukset käytöstä.\nIlmoitukset kootaan yhteen tällaiseen viestiin, enintään yksi koontijaksoa kohden.\n\nJos et halua enää viestejä palvelusta {site} tähän osoitteeseen mistään kansiosta: {refuseUrl}\n',
  },
  cs: {
    'confirm.subject': '{site}: potvrďte oznámení na tuto adresu',
    'confirm.body':
      'Někdo požádal {site} o zasílání oznámení o sdílené složce na tuto adresu.\nNic se neodešle, dokud nepotvrdíte:\n\nPotvrdit: {confirmUrl}\n({hours, plural, one {platí # hodinu} few {platí # hodiny} many {platí # hodiny} other {platí # hodin}})\n\nPokud jste o to nežádali, tento e-mail ignorujte: nic dalšího nedostanete. Chcete-li odmítnout veškerou poštu\nod {site} na tuto adresu, nyní i později: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Z vaší složky byly staženy soubory} uploaded {Do vaší složky byly nahrány soubory} other {Aktivita ve vaší složce}}',
    'digest.body':
      'Od {since}: {downloads, plural, one {# stažení} few {# stažení} many {# stažení} other {# stažení}} a {uploads, plural, one {# dokončené nahrání} few {# dokončená nahrání} many {# dokončeného nahrání} other {# dokončených nahrání}} ve vaší složce.\n{first, select, downloaded {Nejprve: soubor ({size}) byl stažen {time}.} other {Nejprve: soubor ({size}) byl nahrán {time}.}}\n\nSložka: {folderUrl}\nOtevřete ji vlastním odkazem (obsahuje klíč), abyste viděli seznam aktivit nebo vypnuli oznámení.\nOznámení se sbírají do jednoho e-mailu, jako je tento, nejvýše jednoho za souhrnné období.\n\nChcete-li od {site} na tuto adresu už nedostávat poštu k žádné složce: {refuseUrl}\n',
  },
  ro: {
    'confirm.subject': '{site}: confirmați notificările către această adresă',
    'confirm.body':
      'Cineva a cerut ca {site} să trimită la această adresă notificări despre un dosar partajat.\nNu se trimite nimic până nu confirmați:\n\nConfirmați: {confirmUrl}\n({hours, plural, one {valabil # oră} few {valabil # ore} other {valabil # de ore}})\n\nDacă nu ați cerut acest lucru, ignorați mesajul: nu veți mai primi nimic. Pentru a refuza orice e-mail\nde la {site} la această adresă, acum și în viitor: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Au fost descărcate fișiere din dosarul tău} uploaded {Au fost încărcate fișiere în dosarul tău} other {Activitate în dosarul tău}}',
    'digest.body':
      'Din {since}: {downloads, plural, one {# descărcare} few {# descărcări} other {# de descărcări}} și {uploads, plural, one {# încărcare finalizată} few {# încărcări finalizate} other {# de încărcări finalizate}} în dosarul tău.\n{first, select, downloaded {Prima: un fișier ({size}) a fost descărcat la {time}.} other {Prima: un fișier ({size}) a fost încărcat la {time}.}}\n\nDosar: {folderUrl}\nDeschide-l cu propriul link (conține cheia) ca să vezi lista de activitate sau să dezactivezi notificările.\nNotificările sunt adunate într-un singur e-mail ca acesta, cel mult unul pe perioadă de rezumat.\n\nCa să nu mai primești e-mailuri de la {site} la această adresă, pentru niciun dosar: {refuseUrl}\n',
  },
  el: {
    'confirm.subject': '{site}: επιβεβαιώστε τις ειδοποιήσεις σε αυτή τη διεύθυνση',
    'confirm.body':
      'Κάποιος ζήτησε από το {site} να στέλνει σε αυτή τη διεύθυνση ειδοποιήσεις για έναν κοινόχρηστο φάκελο.\nΔεν στέλνεται τίποτα αν δεν επιβεβαιώσετε:\n\nΕπιβεβαίωση: {confirmUrl}\n({hours, plural, one {ισχύει για # ώρα} other {ισχύει για # ώρες}})\n\nΑν δεν το ζητήσατε, αγνοήστε αυτό το μήνυμα: δεν θα λάβετε τίποτα άλλο. Για να αρνηθείτε κάθε μήνυμα\nαπό το {site} σε αυτή τη διεύθυνση, τώρα και στο μέλλον: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Έγινε λήψη αρχείων από τον φάκελό σας} uploaded {Ανέβηκαν αρχεία στον φάκελό σας} other {Δραστηριότητα στον φάκελό σας}}',
    'digest.body':
      'Από {since}: {downloads, plural, one {# λήψη} other {# λήψεις}} και {uploads, plural, one {# ολοκληρωμένη μεταφόρτωση} other {# ολοκληρωμένες μεταφορτώσεις}} στον φάκελό σας.\n{first, select, downloaded {Πρώτα: έγινε λήψη ενός αρχείου ({size}) στις {time}.} other {Πρώτα: ανέβηκε ένα αρχείο ({size}) στις {time}.}}\n\nΦάκελος: {folderUrl}\nΑνοίξτε τον με τον δικό σας σύνδεσμο (περιέχει το κλειδί) για να δείτε τη λίστα δραστηριότητας ή να απενεργοποιήσετε τις ειδοποιήσεις.\nΟι ειδοποιήσεις συγκεντρώνονται σε ένα μήνυμα σαν αυτό, το πολύ ένα ανά περίοδο σύνοψης.\n\nΓια να μη λαμβάνετε πια μηνύματα από {site} σε αυτή τη διεύθυνση, για κανέναν φάκελο: {refuseUrl}\n',
  },
  hu: {
    'confirm.subject': '{site}: erősítse meg az értesítéseket erre a címre',
    'confirm.body':
      'Valaki azt kérte a(z) {site} szolgáltatástól, hogy erre a címre küldjön értesítéseket egy megosztott mappáról.\nSemmit sem küldünk, amíg meg nem erősíti:\n\nMegerősítés: {confirmUrl}\n({hours, plural, one {# óráig érvényes} other {# óráig érvényes}})\n\nHa nem Ön kérte, hagyja figyelmen kívül ezt a levelet: többet nem kap. Ha minden levelet vissza szeretne utasítani\na(z) {site} szolgáltatástól erre a címre, most és később is: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Fájlokat töltöttek le a mappádból} uploaded {Fájlokat töltöttek fel a mappádba} other {Tevékenység a mappádban}}',
    'digest.body':
      '{since} óta a mappádban: {downloads, plural, one {# letöltés} other {# letöltés}} és {uploads, plural, one {# befejezett feltöltés} other {# befejezett feltöltés}}.\n{first, select, downloaded {Elsőként: egy fájlt ({size}) letöltöttek ekkor: {time}.} other {Elsőként: egy fájlt ({size}) feltöltöttek ekkor: {time}.}}\n\nMappa: {folderUrl}\nNyisd meg a saját linkeddel (ez tartalmazza a kulcsot), hogy lásd a tevékenységlistáját, vagy kikapcsold az értesítéseket.\nAz értesítések egy ilyen levélbe gyűlnek, gyűjtési időszakonként legfeljebb egybe.\n\nHa nem kérsz több levelet ettől: {site} erre a címre, egyik mappáról sem: {refuseUrl}\n',
  },
  th: {
    'confirm.subject': '{site}: ยืนยันการแจ้งเตือนไปยังที่อยู่นี้',
    'confirm.body':
      'มีผู้ขอให้ {site} ส่งการแจ้งเตือนเกี่ยวกับโฟลเดอร์ที่แชร์มายังที่อยู่นี้\nจะไม่มีการส่งสิ่งใดจนกว่าคุณจะยืนยัน:\n\nยืนยัน: {confirmUrl}\n({hours, plural, other {ใช้ได้ # ชั่วโมง}})\n\nหากคุณไม่ได้ขอ โปรดเพิกเฉยต่ออีเมลนี้: คุณจะไม่ได้รับอะไรอีก หากต้องการปฏิเสธอีเมลทั้งหมด\nจาก {site} ที่ส่งมายังที่อยู่นี้ ทั้งตอนนี้และต่อไป: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {มีการดาวน์โหลดไฟล์จากโฟลเดอร์ของคุณ} uploaded {มีการอัปโหลดไฟล์ไปยังโฟลเดอร์ของคุณ} other {กิจกรรมในโฟลเดอร์ของคุณ}}',
    'digest.body':
      'ตั้งแต่ {since}: {downloads, plural, other {ดาวน์โหลด # ครั้ง}} และ {uploads, plural, other {อัปโหลดเสร็จ # ครั้ง}} ในโฟลเดอร์ของคุณ\n{first, select, downloaded {ครั้งแรก: มีการดาวน์โหลดไฟล์ ({size}) เมื่อ {time}} other {ครั้งแรก: มีการอัปโหลดไฟล์ ({size}) เมื่อ {time}}}\n\nโฟลเดอร์: {folderUrl}\nเปิดด้วยลิงก์ของคุณเอง (มีกุญแจอยู่ในลิงก์) เพื่อดูรายการกิจกรรมหรือปิดการแจ้งเตือน\nการแจ้งเตือนจะรวมไว้ในอีเมลฉบับเดียวแบบนี้ ไม่เกินหนึ่งฉบับต่อรอบสรุป\n\nหากไม่ต้องการรับอีเมลจาก {site} ที่อยู่นี้อีก สำหรับทุกโฟลเดอร์: {refuseUrl}\n',
  },
  bn: {
    'confirm.subject': '{site}: এই ঠিকানায় বিজ্ঞপ্তি নিশ্চিত করুন',
    'confirm.body':
      'কেউ {site}-কে একটি শেয়ার করা ফোল্ডার সম্পর্কে বিজ্ঞপ্তি এই ঠিকানায় পাঠাতে বলেছেন।\nআপনি নিশ্চিত না করা পর্যন্ত কিছুই পাঠানো হবে না:\n\nনিশ্চিত করুন: {confirmUrl}\n({hours, plural, one {# ঘণ্টা বৈধ} other {# ঘণ্টা বৈধ}})\n\nআপনি এটি না চাইলে এই মেইলটি উপেক্ষা করুন: আপনি আর কিছু পাবেন না। এই ঠিকানায় {site} থেকে\nএখন ও পরে সব মেইল প্রত্যাখ্যান করতে: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {আপনার ফোল্ডার থেকে ফাইল ডাউনলোড হয়েছে} uploaded {আপনার ফোল্ডারে ফাইল আপলোড হয়েছে} other {আপনার ফোল্ডারে কার্যকলাপ}}',
    'digest.body':
      '{since} থেকে আপনার ফোল্ডারে: {downloads, plural, one {#টি ডাউনলোড} other {#টি ডাউনলোড}} এবং {uploads, plural, one {#টি আপলোড সম্পন্ন} other {#টি আপলোড সম্পন্ন}}।\n{first, select, downloaded {প্রথম: একটি ফাইল ({size}) {time}-এ ডাউনলোড হয়েছে।} other {প্রথম: একটি ফাইল ({size}) {time}-এ আপলোড হয়েছে।}}\n\nফোল্ডার: {folderUrl}\nকার্যকলাপের তালিকা দেখতে বা বিজ্ঞপ্তি বন্ধ করতে আপনার নিজের লিংক (এতে চাবি আছে) দিয়ে এটি খুলুন।\nবিজ্ঞপ্তিগুলো এরকম একটি মেইলে জড়ো করা হয়, প্রতি সারসংক্ষেপ পর্বে সর্বোচ্চ একটি।\n\nকোনো ফোল্ডারের জন্য এই ঠিকানায় {site} থেকে আর মেইল না পেতে: {refuseUrl}\n',
  },
  ar: {
    'confirm.subject': '{site}: أكّد الإشعارات إلى هذا العنوان',
    'confirm.body':
      'طلب أحدهم من {site} إرسال إشعارات عن مجلد مشترك إلى هذا العنوان.\nلن يُرسل إليه شيء ما لم تؤكّد:\n\nتأكيد: {confirmUrl}\n({hours, plural, zero {صالح # ساعة} one {صالح ساعة واحدة} two {صالح ساعتين} few {صالح # ساعات} many {صالح # ساعة} other {صالح # ساعة}})\n\nإن لم تطلب ذلك فتجاهل هذه الرسالة: لن يصلك شيء آخر. لرفض كل بريد\nمن {site} إلى هذا العنوان، الآن ولاحقًا: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {تم تنزيل ملفات من مجلدك} uploaded {تم رفع ملفات إلى مجلدك} other {نشاط في مجلدك}}',
    'digest.body':
      'منذ {since}: {downloads, plural, zero {لا تنزيلات} one {تنزيل واحد} two {تنزيلان} few {# تنزيلات} many {# تنزيلًا} other {# تنزيل}} و{uploads, plural, zero {لا عمليات رفع مكتملة} one {عملية رفع مكتملة واحدة} two {عمليتا رفع مكتملتان} few {# عمليات رفع مكتملة} many {# عملية رفع مكتملة} other {# عملية رفع مكتملة}} في مجلدك.\n{first, select, downloaded {أولًا: تم تنزيل ملف ({size}) في {time}.} other {أولًا: تم رفع ملف ({size}) في {time}.}}\n\nالمجلد: {folderUrl}\nافتحه برابطك الخاص (فيه المفتاح) لترى قائمة نشاطه أو لتوقف الإشعارات.\nتُجمع الإشعارات في رسالة واحدة مثل هذه، رسالة واحدة على الأكثر في كل فترة تجميع.\n\nكي لا تصلك رسائل أخرى من {site} على هذا العنوان، لأي مجلد: {refuseUrl}\n',
  },
  he: {
    'confirm.subject': '{site}: אשרו התראות לכתובת הזו',
    'confirm.body':
      'מישהו ביקש מ־{site} לשלוח לכתובת הזו התראות על תיקייה משותפת.\nשום דבר לא יישלח אליה אלא אם תאשרו:\n\nאישור: {confirmUrl}\n({hours, plural, one {בתוקף לשעה אחת} two {בתוקף לשעתיים} other {בתוקף ל־# שעות}})\n\nאם לא ביקשתם זאת, התעלמו מההודעה: לא תקבלו שום דבר נוסף. כדי לסרב לכל דואר\nמ־{site} לכתובת הזו, עכשיו ובעתיד: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {הורדו קבצים מהתיקייה שלך} uploaded {הועלו קבצים לתיקייה שלך} other {פעילות בתיקייה שלך}}',
    'digest.body':
      'מאז {since}: {downloads, plural, one {הורדה אחת} two {שתי הורדות} other {# הורדות}} ו־{uploads, plural, one {העלאה אחת שהושלמה} two {שתי העלאות שהושלמו} other {# העלאות שהושלמו}} בתיקייה שלך.\n{first, select, downloaded {ראשונה: קובץ ({size}) הורד ב־{time}.} other {ראשונה: קובץ ({size}) הועלה ב־{time}.}}\n\nתיקייה: {folderUrl}\nפתחו אותה בקישור שלכם (הוא מכיל את המפתח) כדי לראות את רשימת הפעילות או לכבות את ההתראות.\nההתראות נאספות לדואר אחד כמו זה, לכל היותר אחד בכל תקופת סיכום.\n\nכדי לא לקבל עוד דואר מ־{site} בכתובת הזו, לאף תיקייה: {refuseUrl}\n',
  },
  fa: {
    'confirm.subject': '{site}: اعلان‌ها به این نشانی را تأیید کنید',
    'confirm.body':
      'کسی از {site} خواسته است اعلان‌های یک پوشهٔ اشتراکی را به این نشانی بفرستد.\nتا تأیید نکنید چیزی فرستاده نمی‌شود:\n\nتأیید: {confirmUrl}\n({hours, plural, one {# ساعت معتبر} other {# ساعت معتبر}})\n\nاگر شما این را نخواسته‌اید، این نامه را نادیده بگیرید: چیز دیگری دریافت نمی‌کنید. برای رد همهٔ نامه‌های\n{site} به این نشانی، اکنون و بعداً: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {فایل‌هایی از پوشهٔ شما دانلود شد} uploaded {فایل‌هایی در پوشهٔ شما بارگذاری شد} other {فعالیت در پوشهٔ شما}}',
    'digest.body':
      'از {since}: {downloads, plural, one {# دانلود} other {# دانلود}} و {uploads, plural, one {# بارگذاری کامل‌شده} other {# بارگذاری کامل‌شده}} در پوشهٔ شما.\n{first, select, downloaded {نخست: فایلی ({size}) در {time} دانلود شد.} other {نخست: فایلی ({size}) در {time} بارگذاری شد.}}\n\nپوشه: {folderUrl}\nآن را با پیوند خودتان (که کلید را دارد) باز کنید تا فهرست فعالیتش را ببینید یا اعلان‌ها را خاموش کنید.\nاعلان‌ها در یک نامه مانند همین گرد می‌آیند، حداکثر یکی در هر دورهٔ خلاصه.\n\nبرای اینکه دیگر از {site} در این نشانی برای هیچ پوشه‌ای نامه نگیرید: {refuseUrl}\n',
  },
  ru: {
    'confirm.subject': '{site}: подтвердите уведомления на этот адрес',
    'confirm.body':
      'Кто-то попросил {site} присылать на этот адрес уведомления об общей папке.\nНичего не будет отправлено, пока вы не подтвердите:\n\nПодтвердить: {confirmUrl}\n({hours, plural, one {действует # час} few {действует # часа} many {действует # часов} other {действует # часа}})\n\nЕсли вы этого не просили, не обращайте внимания на это письмо: больше ничего не придёт. Чтобы отказаться от всех писем\n{site} на этот адрес, сейчас и в будущем: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Из вашей папки скачали файлы} uploaded {В вашу папку загрузили файлы} other {Активность в вашей папке}}',
    'digest.body':
      'С {since}: {downloads, plural, one {# скачивание} few {# скачивания} many {# скачиваний} other {# скачивания}} и {uploads, plural, one {# завершённая загрузка} few {# завершённые загрузки} many {# завершённых загрузок} other {# завершённой загрузки}} в вашей папке.\n{first, select, downloaded {Первым: файл ({size}) скачан {time}.} other {Первым: файл ({size}) загружен {time}.}}\n\nПапка: {folderUrl}\nОткройте её своей ссылкой (в ней ключ), чтобы увидеть список активности или отключить уведомления.\nУведомления собираются в одно письмо, как это, не больше одного за период сводки.\n\nЧтобы больше не получать писем от {site} на этот адрес ни по одной папке: {refuseUrl}\n',
  },
  uk: {
    'confirm.subject': '{site}: підтвердьте сповіщення на цю адресу',
    'confirm.body':
      'Хтось попросив {site} надсилати на цю адресу сповіщення про спільну теку.\nНічого не надсилатиметься, доки ви не підтвердите:\n\nПідтвердити: {confirmUrl}\n({hours, plural, one {діє # годину} few {діє # години} many {діє # годин} other {діє # години}})\n\nЯкщо ви цього не просили, не зважайте на цей лист: більше нічого не надійде. Щоб відмовитися від усіх листів\n{site} на цю адресу, зараз і надалі: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {З вашої теки завантажили файли} uploaded {До вашої теки вивантажили файли} other {Активність у вашій теці}}',
    'digest.body':
      'З {since}: {downloads, plural, one {# завантаження} few {# завантаження} many {# завантажень} other {# завантаження}} і {uploads, plural, one {# завершене вивантаження} few {# завершені вивантаження} many {# завершених вивантажень} other {# завершеного вивантаження}} у вашій теці.\n{first, select, downloaded {Першим: файл ({size}) завантажено {time}.} other {Першим: файл ({size}) вивантажено {time}.}}\n\nТека: {folderUrl}\nВідкрийте її своїм посиланням (у ньому ключ), щоб побачити список активності або вимкнути сповіщення.\nСповіщення збираються в один лист, як цей, не більше одного за період зведення.\n\nЩоб більше не отримувати листів від {site} на цю адресу щодо жодної теки: {refuseUrl}\n',
  },
  tr: {
    'confirm.subject': '{site}: bu adrese bildirimleri onaylayın',
    'confirm.body':
      'Biri {site} hizmetinden paylaşılan bir klasörle ilgili bildirimleri bu adrese göndermesini istedi.\nSiz onaylamadıkça hiçbir şey gönderilmez:\n\nOnayla: {confirmUrl}\n({hours, plural, one {# saat geçerli} other {# saat geçerli}})\n\nBunu siz istemediyseniz bu e-postayı yok sayın: başka bir şey almayacaksınız. {site} hizmetinden bu adrese\nşimdi ve sonra gelecek tüm e-postaları reddetmek için: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Klasörünüzden dosyalar indirildi} uploaded {Klasörünüze dosyalar yüklendi} other {Klasörünüzde etkinlik}}',
    'digest.body':
      '{since} tarihinden beri klasörünüzde: {downloads, plural, one {# indirme} other {# indirme}} ve {uploads, plural, one {# tamamlanan yükleme} other {# tamamlanan yükleme}}.\n{first, select, downloaded {İlk: bir dosya ({size}) {time} tarihinde indirildi.} other {İlk: bir dosya ({size}) {time} tarihinde yüklendi.}}\n\nKlasör: {folderUrl}\nEtkinlik listesini görmek veya bildirimleri kapatmak için kendi bağlantınızla (anahtarı içerir) açın.\nBildirimler bunun gibi tek bir e-postada toplanır, her özet döneminde en fazla bir tane.\n\nBu adreste {site} sitesinden hiçbir klasör için artık e-posta almamak için: {refuseUrl}\n',
  },
  hi: {
    'confirm.subject': '{site}: इस पते पर सूचनाओं की पुष्टि करें',
    'confirm.body':
      'किसी ने {site} से कहा है कि वह एक साझा फ़ोल्डर की सूचनाएँ इस पते पर भेजे।\nजब तक आप पुष्टि नहीं करते, कुछ नहीं भेजा जाएगा:\n\nपुष्टि करें: {confirmUrl}\n({hours, plural, one {# घंटे के लिए मान्य} other {# घंटों के लिए मान्य}})\n\nअगर आपने यह नहीं माँगा था, तो इस मेल को अनदेखा करें: आपको और कुछ नहीं मिलेगा। इस पते पर {site} से\nअभी और आगे आने वाले सभी मेल अस्वीकार करने के लिए: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {आपके फ़ोल्डर से फ़ाइलें डाउनलोड की गईं} uploaded {आपके फ़ोल्डर में फ़ाइलें अपलोड की गईं} other {आपके फ़ोल्डर में गतिविधि}}',
    'digest.body':
      '{since} से आपके फ़ोल्डर में: {downloads, plural, one {# डाउनलोड} other {# डाउनलोड}} और {uploads, plural, one {# अपलोड पूरा} other {# अपलोड पूरे}}।\n{first, select, downloaded {पहला: एक फ़ाइल ({size}) {time} पर डाउनलोड की गई।} other {पहला: एक फ़ाइल ({size}) {time} पर अपलोड की गई।}}\n\nफ़ोल्डर: {folderUrl}\nइसकी गतिविधि सूची देखने या सूचनाएँ बंद करने के लिए इसे अपने लिंक (इसमें कुंजी है) से खोलें।\nसूचनाएँ इस जैसे एक मेल में इकट्ठी की जाती हैं, हर सारांश अवधि में अधिकतम एक।\n\nकिसी भी फ़ोल्डर के लिए इस पते पर {site} से और मेल न पाने के लिए: {refuseUrl}\n',
  },
  id: {
    'confirm.subject': '{site}: konfirmasi notifikasi ke alamat ini',
    'confirm.body':
      'Seseorang meminta {site} mengirim notifikasi tentang folder bersama ke alamat ini.\nTidak ada yang dikirim kecuali Anda mengonfirmasi:\n\nKonfirmasi: {confirmUrl}\n({hours, plural, other {berlaku # jam}})\n\nJika Anda tidak memintanya, abaikan email ini: Anda tidak akan menerima apa pun lagi. Untuk menolak semua email\ndari {site} ke alamat ini, sekarang dan nanti: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {File diunduh dari folder Anda} uploaded {File diunggah ke folder Anda} other {Aktivitas di folder Anda}}',
    'digest.body':
      'Sejak {since}: {downloads, plural, other {# unduhan}} dan {uploads, plural, other {# unggahan selesai}} di folder Anda.\n{first, select, downloaded {Pertama: sebuah file ({size}) diunduh pada {time}.} other {Pertama: sebuah file ({size}) diunggah pada {time}.}}\n\nFolder: {folderUrl}\nBuka dengan tautan Anda sendiri (berisi kuncinya) untuk melihat daftar aktivitasnya atau mematikan notifikasi.\nNotifikasi dikumpulkan dalam satu email seperti ini, paling banyak satu per periode ringkasan.\n\nAgar tidak menerima email lagi dari {site} di alamat ini, untuk folder mana pun: {refuseUrl}\n',
  },
  vi: {
    'confirm.subject': '{site}: xác nhận nhận thông báo tại địa chỉ này',
    'confirm.body':
      'Có người đã yêu cầu {site} gửi thông báo về một thư mục được chia sẻ đến địa chỉ này.\nSẽ không có gì được gửi nếu bạn không xác nhận:\n\nXác nhận: {confirmUrl}\n({hours, plural, other {có hiệu lực trong # giờ}})\n\nNếu bạn không yêu cầu, hãy bỏ qua thư này: bạn sẽ không nhận thêm gì. Để từ chối mọi thư\ntừ {site} đến địa chỉ này, bây giờ và sau này: {refuseUrl}\n',
    'digest.subject':
      '{site}: {kind, select, downloaded {Đã có tệp được tải xuống từ thư mục của bạn} uploaded {Đã có tệp được tải lên thư mục của bạn} other {Hoạt động trong thư mục của bạn}}',
    'digest.body':
      'Từ {since}: {downloads, plural, other {# lượt tải xuống}} và {uploads, plural, other {# lượt tải lên hoàn tất}} trong thư mục của bạn.\n{first, select, downloaded {Đầu tiên: một tệp ({size}) được tải xuống lúc {time}.} other {Đầu tiên: một tệp ({size}) được tải lên lúc {time}.}}\n\nThư mục: {folderUrl}\nMở bằng liên kết của riêng bạn (chứa khóa) để xem danh sách hoạt động hoặc tắt thông báo.\nThông báo được gom vào một thư như thư này, tối đa một thư mỗi kỳ tổng hợp.\n\nĐể không nhận thêm thư từ {site} tại địa chỉ này, cho bất kỳ thư mục nào: {refuseUrl}\n',
  },
} as const satisfies Record<
  SiteLanguage,
  Readonly<Record<'confirm.subject' | 'confirm.body' | 'digest.subject' | 'digest.body', string>>
>;
