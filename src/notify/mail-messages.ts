/**
 * The mails' words in every language the site speaks (the page's catalogs are web/src/i18n/messages;
 * a mail is composed on the server, which cannot read those). ICU MessageFormat, as the page's;
 * test/unit/mail-language.test.ts checks that each page language has them, with English's arguments
 * and its own plural forms. Only the confirmation mail is here: it is the one mail whose reader's
 * language is known (the page it was asked from; docs/translations.md).
 */
export const MAIL_MESSAGES = {
  en: {
    'confirm.subject': '{site}: confirm notifications to this address',
    'confirm.body':
      'Someone asked {site} to send notifications about a shared folder to this address.\nNothing is sent to it unless you confirm:\n\nConfirm: {confirmUrl}\n({hours, plural, one {valid for # hour} other {valid for # hours}})\n\nIf you did not ask for this, ignore this mail: you will get nothing more. To refuse all mail\nfrom {site} at this address, now and later: {refuseUrl}\n',
  },
  de: {
    'confirm.subject': '{site}: Benachrichtigungen an diese Adresse bestätigen',
    'confirm.body':
      'Jemand hat {site} gebeten, Benachrichtigungen über einen geteilten Ordner an diese Adresse zu senden.\nEs wird nichts gesendet, solange Sie nicht bestätigen:\n\nBestätigen: {confirmUrl}\n({hours, plural, one {gültig für # Stunde} other {gültig für # Stunden}})\n\nWenn Sie das nicht angefordert haben, ignorieren Sie diese Mail: Sie erhalten nichts weiter. Um alle Mails\nvon {site} an diese Adresse abzulehnen, jetzt und künftig: {refuseUrl}\n',
  },
  es: {
    'confirm.subject': '{site}: confirma las notificaciones a esta dirección',
    'confirm.body':
      'Alguien pidió a {site} que enviara a esta dirección notificaciones sobre una carpeta compartida.\nNo se enviará nada a menos que lo confirmes:\n\nConfirmar: {confirmUrl}\n({hours, plural, one {válido durante # hora} many {válido durante # horas} other {válido durante # horas}})\n\nSi no lo pediste, ignora este correo: no recibirás nada más. Para rechazar todo el correo\nde {site} en esta dirección, ahora y en el futuro: {refuseUrl}\n',
  },
  fr: {
    'confirm.subject': '{site} : confirmez les notifications à cette adresse',
    'confirm.body':
      'Quelqu’un a demandé à {site} d’envoyer à cette adresse des notifications sur un dossier partagé.\nRien n’y est envoyé tant que vous ne confirmez pas :\n\nConfirmer : {confirmUrl}\n({hours, plural, one {valable # heure} many {valable # heures} other {valable # heures}})\n\nSi vous n’avez rien demandé, ignorez ce message : vous ne recevrez rien d’autre. Pour refuser tout courriel\nde {site} à cette adresse, maintenant et plus tard : {refuseUrl}\n',
  },
  it: {
    'confirm.subject': '{site}: conferma le notifiche a questo indirizzo',
    'confirm.body':
      'Qualcuno ha chiesto a {site} di inviare a questo indirizzo notifiche su una cartella condivisa.\nNon verrà inviato nulla finché non confermi:\n\nConferma: {confirmUrl}\n({hours, plural, one {valido per # ora} many {valido per # ore} other {valido per # ore}})\n\nSe non l’hai chiesto tu, ignora questa email: non riceverai altro. Per rifiutare tutte le email\nda {site} a questo indirizzo, ora e in futuro: {refuseUrl}\n',
  },
  nl: {
    'confirm.subject': '{site}: bevestig meldingen aan dit adres',
    'confirm.body':
      'Iemand heeft {site} gevraagd meldingen over een gedeelde map naar dit adres te sturen.\nEr wordt niets verstuurd tenzij je bevestigt:\n\nBevestigen: {confirmUrl}\n({hours, plural, one {# uur geldig} other {# uur geldig}})\n\nHeb je dit niet gevraagd, negeer dan deze mail: je krijgt verder niets. Om alle mail\nvan {site} aan dit adres te weigeren, nu en later: {refuseUrl}\n',
  },
  pl: {
    'confirm.subject': '{site}: potwierdź powiadomienia na ten adres',
    'confirm.body':
      'Ktoś poprosił {site} o wysyłanie na ten adres powiadomień o udostępnionym folderze.\nNic nie zostanie wysłane, dopóki nie potwierdzisz:\n\nPotwierdź: {confirmUrl}\n({hours, plural, one {ważne przez # godzinę} few {ważne przez # godziny} many {ważne przez # godzin} other {ważne przez # godziny}})\n\nJeśli to nie Ty, zignoruj tę wiadomość: nic więcej nie dostaniesz. Aby odrzucić wszelką pocztę\nod {site} na ten adres, teraz i w przyszłości: {refuseUrl}\n',
  },
  'pt-BR': {
    'confirm.subject': '{site}: confirme as notificações para este endereço',
    'confirm.body':
      'Alguém pediu a {site} que enviasse para este endereço notificações sobre uma pasta compartilhada.\nNada é enviado a menos que você confirme:\n\nConfirmar: {confirmUrl}\n({hours, plural, one {válido por # hora} many {válido por # horas} other {válido por # horas}})\n\nSe você não pediu isso, ignore este e-mail: não receberá mais nada. Para recusar todo e-mail\nde {site} neste endereço, agora e depois: {refuseUrl}\n',
  },
  'pt-PT': {
    'confirm.subject': '{site}: confirme as notificações para este endereço',
    'confirm.body':
      'Alguém pediu a {site} que enviasse para este endereço notificações sobre uma pasta partilhada.\nNada é enviado a menos que confirme:\n\nConfirmar: {confirmUrl}\n({hours, plural, one {válido durante # hora} many {válido durante # horas} other {válido durante # horas}})\n\nSe não pediu isto, ignore este e-mail: não receberá mais nada. Para recusar todo o correio\nde {site} neste endereço, agora e no futuro: {refuseUrl}\n',
  },
  ja: {
    'confirm.subject': '{site}: このアドレスへの通知を確認してください',
    'confirm.body':
      '{site} に、共有フォルダーについての通知をこのアドレスへ送るよう依頼がありました。\n確認されるまで何も送られません:\n\n確認する: {confirmUrl}\n({hours, plural, other {# 時間有効}})\n\n心当たりがなければ、このメールは無視してください。これ以上何も届きません。{site} からこのアドレスへの\nすべてのメールを今後も含めて拒否するには: {refuseUrl}\n',
  },
  ko: {
    'confirm.subject': '{site}: 이 주소로 보내는 알림을 확인하세요',
    'confirm.body':
      '누군가 {site}에 공유 폴더에 관한 알림을 이 주소로 보내 달라고 요청했습니다.\n확인하기 전에는 아무것도 보내지 않습니다.\n\n확인: {confirmUrl}\n({hours, plural, other {#시간 동안 유효}})\n\n요청한 적이 없다면 이 메일을 무시하세요. 더 이상 아무것도 받지 않습니다. {site}에서 이 주소로 오는\n모든 메일을 지금부터 거부하려면: {refuseUrl}\n',
  },
  'zh-Hans': {
    'confirm.subject': '{site}：确认向此地址发送通知',
    'confirm.body':
      '有人请求 {site} 向此地址发送某个共享文件夹的通知。\n在你确认之前，不会向此地址发送任何内容：\n\n确认：{confirmUrl}\n（{hours, plural, other {# 小时内有效}}）\n\n如果不是你本人请求的，请忽略此邮件：你不会再收到任何内容。如需拒绝 {site}\n现在及以后发往此地址的所有邮件：{refuseUrl}\n',
  },
  'zh-Hant': {
    'confirm.subject': '{site}：確認向此地址傳送通知',
    'confirm.body':
      '有人請 {site} 向此地址傳送某個共享資料夾的通知。\n在你確認之前，不會向此地址傳送任何內容：\n\n確認：{confirmUrl}\n（{hours, plural, other {# 小時內有效}}）\n\n如果不是你本人提出的，請忽略此郵件：你不會再收到任何內容。如要拒絕 {site}\n現在及以後寄往此地址的所有郵件：{refuseUrl}\n',
  },
  sv: {
    'confirm.subject': '{site}: bekräfta aviseringar till den här adressen',
    'confirm.body':
      'Någon bad {site} att skicka aviseringar om en delad mapp till den här adressen.\nIngenting skickas om du inte bekräftar:\n\nBekräfta: {confirmUrl}\n({hours, plural, one {giltig i # timme} other {giltig i # timmar}})\n\nOm du inte bad om detta kan du strunta i det här mejlet: du får inget mer. För att avböja all e-post\nfrån {site} till den här adressen, nu och senare: {refuseUrl}\n',
  },
  da: {
    'confirm.subject': '{site}: bekræft notifikationer til denne adresse',
    'confirm.body':
      'Nogen har bedt {site} om at sende notifikationer om en delt mappe til denne adresse.\nDer sendes intet, medmindre du bekræfter:\n\nBekræft: {confirmUrl}\n({hours, plural, one {gyldig i # time} other {gyldig i # timer}})\n\nHvis du ikke har bedt om det, kan du se bort fra denne mail: du får ikke mere. For at afvise al post\nfra {site} til denne adresse, nu og fremover: {refuseUrl}\n',
  },
  nb: {
    'confirm.subject': '{site}: bekreft varsler til denne adressen',
    'confirm.body':
      'Noen ba {site} sende varsler om en delt mappe til denne adressen.\nIngenting sendes med mindre du bekrefter:\n\nBekreft: {confirmUrl}\n({hours, plural, one {gyldig i # time} other {gyldig i # timer}})\n\nHvis du ikke ba om dette, kan du se bort fra denne e-posten: du får ikke mer. For å avvise all e-post\nfra {site} til denne adressen, nå og senere: {refuseUrl}\n',
  },
  fi: {
    'confirm.subject': '{site}: vahvista ilmoitukset tähän osoitteeseen',
    'confirm.body':
      'Joku pyysi palvelua {site} lähettämään tähän osoitteeseen ilmoituksia jaetusta kansiosta.\nMitään ei lähetetä, ellet vahvista:\n\nVahvista: {confirmUrl}\n({hours, plural, one {voimassa # tunnin ajan} other {voimassa # tuntia}})\n\nJos et pyytänyt tätä, voit jättää viestin huomiotta: et saa muuta. Kieltäytyäksesi kaikesta postista\npalvelulta {site} tähän osoitteeseen, nyt ja myöhemmin: {refuseUrl}\n',
  },
  cs: {
    'confirm.subject': '{site}: potvrďte oznámení na tuto adresu',
    'confirm.body':
      'Někdo požádal {site} o zasílání oznámení o sdílené složce na tuto adresu.\nNic se neodešle, dokud nepotvrdíte:\n\nPotvrdit: {confirmUrl}\n({hours, plural, one {platí # hodinu} few {platí # hodiny} many {platí # hodiny} other {platí # hodin}})\n\nPokud jste o to nežádali, tento e-mail ignorujte: nic dalšího nedostanete. Chcete-li odmítnout veškerou poštu\nod {site} na tuto adresu, nyní i později: {refuseUrl}\n',
  },
  ro: {
    'confirm.subject': '{site}: confirmați notificările către această adresă',
    'confirm.body':
      'Cineva a cerut ca {site} să trimită la această adresă notificări despre un dosar partajat.\nNu se trimite nimic până nu confirmați:\n\nConfirmați: {confirmUrl}\n({hours, plural, one {valabil # oră} few {valabil # ore} other {valabil # de ore}})\n\nDacă nu ați cerut acest lucru, ignorați mesajul: nu veți mai primi nimic. Pentru a refuza orice e-mail\nde la {site} la această adresă, acum și în viitor: {refuseUrl}\n',
  },
  el: {
    'confirm.subject': '{site}: επιβεβαιώστε τις ειδοποιήσεις σε αυτή τη διεύθυνση',
    'confirm.body':
      'Κάποιος ζήτησε από το {site} να στέλνει σε αυτή τη διεύθυνση ειδοποιήσεις για έναν κοινόχρηστο φάκελο.\nΔεν στέλνεται τίποτα αν δεν επιβεβαιώσετε:\n\nΕπιβεβαίωση: {confirmUrl}\n({hours, plural, one {ισχύει για # ώρα} other {ισχύει για # ώρες}})\n\nΑν δεν το ζητήσατε, αγνοήστε αυτό το μήνυμα: δεν θα λάβετε τίποτα άλλο. Για να αρνηθείτε κάθε μήνυμα\nαπό το {site} σε αυτή τη διεύθυνση, τώρα και στο μέλλον: {refuseUrl}\n',
  },
  hu: {
    'confirm.subject': '{site}: erősítse meg az értesítéseket erre a címre',
    'confirm.body':
      'Valaki azt kérte a(z) {site} szolgáltatástól, hogy erre a címre küldjön értesítéseket egy megosztott mappáról.\nSemmit sem küldünk, amíg meg nem erősíti:\n\nMegerősítés: {confirmUrl}\n({hours, plural, one {# óráig érvényes} other {# óráig érvényes}})\n\nHa nem Ön kérte, hagyja figyelmen kívül ezt a levelet: többet nem kap. Ha minden levelet vissza szeretne utasítani\na(z) {site} szolgáltatástól erre a címre, most és később is: {refuseUrl}\n',
  },
  th: {
    'confirm.subject': '{site}: ยืนยันการแจ้งเตือนไปยังที่อยู่นี้',
    'confirm.body':
      'มีผู้ขอให้ {site} ส่งการแจ้งเตือนเกี่ยวกับโฟลเดอร์ที่แชร์มายังที่อยู่นี้\nจะไม่มีการส่งสิ่งใดจนกว่าคุณจะยืนยัน:\n\nยืนยัน: {confirmUrl}\n({hours, plural, other {ใช้ได้ # ชั่วโมง}})\n\nหากคุณไม่ได้ขอ โปรดเพิกเฉยต่ออีเมลนี้: คุณจะไม่ได้รับอะไรอีก หากต้องการปฏิเสธอีเมลทั้งหมด\nจาก {site} ที่ส่งมายังที่อยู่นี้ ทั้งตอนนี้และต่อไป: {refuseUrl}\n',
  },
  bn: {
    'confirm.subject': '{site}: এই ঠিকানায় বিজ্ঞপ্তি নিশ্চিত করুন',
    'confirm.body':
      'কেউ {site}-কে একটি শেয়ার করা ফোল্ডার সম্পর্কে বিজ্ঞপ্তি এই ঠিকানায় পাঠাতে বলেছেন।\nআপনি নিশ্চিত না করা পর্যন্ত কিছুই পাঠানো হবে না:\n\nনিশ্চিত করুন: {confirmUrl}\n({hours, plural, one {# ঘণ্টা বৈধ} other {# ঘণ্টা বৈধ}})\n\nআপনি এটি না চাইলে এই মেইলটি উপেক্ষা করুন: আপনি আর কিছু পাবেন না। এই ঠিকানায় {site} থেকে\nএখন ও পরে সব মেইল প্রত্যাখ্যান করতে: {refuseUrl}\n',
  },
  ar: {
    'confirm.subject': '{site}: أكّد الإشعارات إلى هذا العنوان',
    'confirm.body':
      'طلب أحدهم من {site} إرسال إشعارات عن مجلد مشترك إلى هذا العنوان.\nلن يُرسل إليه شيء ما لم تؤكّد:\n\nتأكيد: {confirmUrl}\n({hours, plural, zero {صالح # ساعة} one {صالح ساعة واحدة} two {صالح ساعتين} few {صالح # ساعات} many {صالح # ساعة} other {صالح # ساعة}})\n\nإن لم تطلب ذلك فتجاهل هذه الرسالة: لن يصلك شيء آخر. لرفض كل بريد\nمن {site} إلى هذا العنوان، الآن ولاحقًا: {refuseUrl}\n',
  },
  he: {
    'confirm.subject': '{site}: אשרו התראות לכתובת הזו',
    'confirm.body':
      'מישהו ביקש מ־{site} לשלוח לכתובת הזו התראות על תיקייה משותפת.\nשום דבר לא יישלח אליה אלא אם תאשרו:\n\nאישור: {confirmUrl}\n({hours, plural, one {בתוקף לשעה אחת} two {בתוקף לשעתיים} other {בתוקף ל־# שעות}})\n\nאם לא ביקשתם זאת, התעלמו מההודעה: לא תקבלו שום דבר נוסף. כדי לסרב לכל דואר\nמ־{site} לכתובת הזו, עכשיו ובעתיד: {refuseUrl}\n',
  },
  fa: {
    'confirm.subject': '{site}: اعلان‌ها به این نشانی را تأیید کنید',
    'confirm.body':
      'کسی از {site} خواسته است اعلان‌های یک پوشهٔ اشتراکی را به این نشانی بفرستد.\nتا تأیید نکنید چیزی فرستاده نمی‌شود:\n\nتأیید: {confirmUrl}\n({hours, plural, one {# ساعت معتبر} other {# ساعت معتبر}})\n\nاگر شما این را نخواسته‌اید، این نامه را نادیده بگیرید: چیز دیگری دریافت نمی‌کنید. برای رد همهٔ نامه‌های\n{site} به این نشانی، اکنون و بعداً: {refuseUrl}\n',
  },
  ru: {
    'confirm.subject': '{site}: подтвердите уведомления на этот адрес',
    'confirm.body':
      'Кто-то попросил {site} присылать на этот адрес уведомления об общей папке.\nНичего не будет отправлено, пока вы не подтвердите:\n\nПодтвердить: {confirmUrl}\n({hours, plural, one {действует # час} few {действует # часа} many {действует # часов} other {действует # часа}})\n\nЕсли вы этого не просили, не обращайте внимания на это письмо: больше ничего не придёт. Чтобы отказаться от всех писем\n{site} на этот адрес, сейчас и в будущем: {refuseUrl}\n',
  },
  uk: {
    'confirm.subject': '{site}: підтвердьте сповіщення на цю адресу',
    'confirm.body':
      'Хтось попросив {site} надсилати на цю адресу сповіщення про спільну теку.\nНічого не надсилатиметься, доки ви не підтвердите:\n\nПідтвердити: {confirmUrl}\n({hours, plural, one {діє # годину} few {діє # години} many {діє # годин} other {діє # години}})\n\nЯкщо ви цього не просили, не зважайте на цей лист: більше нічого не надійде. Щоб відмовитися від усіх листів\n{site} на цю адресу, зараз і надалі: {refuseUrl}\n',
  },
  tr: {
    'confirm.subject': '{site}: bu adrese bildirimleri onaylayın',
    'confirm.body':
      'Biri {site} hizmetinden paylaşılan bir klasörle ilgili bildirimleri bu adrese göndermesini istedi.\nSiz onaylamadıkça hiçbir şey gönderilmez:\n\nOnayla: {confirmUrl}\n({hours, plural, one {# saat geçerli} other {# saat geçerli}})\n\nBunu siz istemediyseniz bu e-postayı yok sayın: başka bir şey almayacaksınız. {site} hizmetinden bu adrese\nşimdi ve sonra gelecek tüm e-postaları reddetmek için: {refuseUrl}\n',
  },
  hi: {
    'confirm.subject': '{site}: इस पते पर सूचनाओं की पुष्टि करें',
    'confirm.body':
      'किसी ने {site} से कहा है कि वह एक साझा फ़ोल्डर की सूचनाएँ इस पते पर भेजे।\nजब तक आप पुष्टि नहीं करते, कुछ नहीं भेजा जाएगा:\n\nपुष्टि करें: {confirmUrl}\n({hours, plural, one {# घंटे के लिए मान्य} other {# घंटों के लिए मान्य}})\n\nअगर आपने यह नहीं माँगा था, तो इस मेल को अनदेखा करें: आपको और कुछ नहीं मिलेगा। इस पते पर {site} से\nअभी और आगे आने वाले सभी मेल अस्वीकार करने के लिए: {refuseUrl}\n',
  },
  id: {
    'confirm.subject': '{site}: konfirmasi notifikasi ke alamat ini',
    'confirm.body':
      'Seseorang meminta {site} mengirim notifikasi tentang folder bersama ke alamat ini.\nTidak ada yang dikirim kecuali Anda mengonfirmasi:\n\nKonfirmasi: {confirmUrl}\n({hours, plural, other {berlaku # jam}})\n\nJika Anda tidak memintanya, abaikan email ini: Anda tidak akan menerima apa pun lagi. Untuk menolak semua email\ndari {site} ke alamat ini, sekarang dan nanti: {refuseUrl}\n',
  },
  vi: {
    'confirm.subject': '{site}: xác nhận nhận thông báo tại địa chỉ này',
    'confirm.body':
      'Có người đã yêu cầu {site} gửi thông báo về một thư mục được chia sẻ đến địa chỉ này.\nSẽ không có gì được gửi nếu bạn không xác nhận:\n\nXác nhận: {confirmUrl}\n({hours, plural, other {có hiệu lực trong # giờ}})\n\nNếu bạn không yêu cầu, hãy bỏ qua thư này: bạn sẽ không nhận thêm gì. Để từ chối mọi thư\ntừ {site} đến địa chỉ này, bây giờ và sau này: {refuseUrl}\n',
  },
} as const satisfies Record<string, Readonly<Record<'confirm.subject' | 'confirm.body', string>>>;
