// Every word of the mails in Ukrainian (the default language). One key per string; `{name}` is a
// parameter, filled in and escaped when the mail is drawn. A key ending in _one/_few/_many/_other
// is one plural form of a sentence, picked by its `{count}` (Intl.PluralRules for the language).
// en.ts has the same keys and parameters (i18n.test.ts checks it).
export const uk = {
  'layout.buttonFallback': 'Якщо кнопка не відкривається, скопіюйте це посилання в адресний рядок браузера:',
  'layout.product': 'LeadRelay — доставка лідів із форм і реклами до вашої CRM',
  'layout.detailLabel': 'Причина',

  'confirm.subject': 'Підтвердіть e-mail для LeadRelay',
  'confirm.preview': 'Одне натискання — і ви зможете увійти.',
  'confirm.heading': 'Вітаємо в LeadRelay!',
  'confirm.body': 'Підтвердіть адресу e-mail, щоб увійти. Посилання дійсне 48 годин.',
  'confirm.action': 'Підтвердити e-mail',
  'confirm.why':
    'Ви отримали цей лист, бо цю адресу вказали під час реєстрації в LeadRelay. Якщо ви не реєструвалися, просто проігноруйте його.',

  'reset.subject': 'Відновлення пароля LeadRelay',
  'reset.preview': 'Посилання для нового пароля дійсне 2 години.',
  'reset.heading': 'Встановіть новий пароль',
  'reset.body': 'Надійшов запит на відновлення пароля вашого акаунта LeadRelay. Посилання дійсне 2 години.',
  'reset.action': 'Встановити новий пароль',
  'reset.why':
    'Ви отримали цей лист, бо хтось попросив відновити пароль акаунта з цією адресою. Якщо це були не ви, проігноруйте лист: пароль залишиться без змін.',

  'operatorReset.subject': 'LeadRelay: посилання для нового пароля',
  'operatorReset.preview': 'Служба підтримки надіслала вам посилання для нового пароля.',
  'operatorReset.heading': 'Встановіть новий пароль',
  'operatorReset.body':
    'Служба підтримки LeadRelay надіслала вам посилання, щоб встановити новий пароль акаунта. Посилання дійсне 2 години.',
  'operatorReset.keep': 'Поки ви не встановите новий пароль, діє поточний.',
  'operatorReset.action': 'Встановити новий пароль',
  'operatorReset.why':
    'Ви отримали цей лист, бо служба підтримки LeadRelay запустила відновлення пароля вашого акаунта. Якщо ви про це не просили, проігноруйте лист і напишіть нам.',

  'broken.subject': 'LeadRelay: «{name}» не приймає ліди',
  'broken.preview': 'Доставка до «{name}» не вдається.',
  'broken.heading': '«{name}» не приймає ліди',
  'broken.body': 'Доставка до «{name}» не вдається.',
  'broken.retry':
    'Нічого не втрачено: ліди чекають у черзі, наступна спроба — {time}, і далі, доки інтеграція не відповість.',
  'broken.reconnect':
    'Інтеграція відхилила збережені облікові дані. Підключіть її заново; доти нові ліди до неї не доставляються, їх можна надіслати повторно зі сторінки хуків.',
  'broken.later': 'Ми напишемо ще раз, щойно доставка відновиться.',
  'broken.action': 'Відкрити інтеграцію',
  'broken.why':
    'Ви отримали цей лист, бо інтеграція вашого акаунта LeadRelay перестала приймати ліди. Він надходить один раз на кожен збій.',

  'recovered.subject': 'LeadRelay: «{name}» знову працює',
  'recovered.preview': 'Доставка до «{name}» відновилася.',
  'recovered.heading': '«{name}» знову працює',
  'recovered.body': 'Доставка до «{name}» відновилася; ліди, що чекали, надсилаються по черзі.',
  'recovered.action': 'Відкрити інтеграцію',
  'recovered.why': 'Ви отримали цей лист, бо ми писали вам про збій цієї інтеграції. Нічого робити не потрібно.',

  'facebookBroken.subject': 'LeadRelay: підключіть Facebook «{name}» знову',
  'facebookBroken.preview': 'Facebook відхилив доступ підключення «{name}».',
  'facebookBroken.heading': 'Підключіть Facebook знову',
  'facebookBroken.body': 'Facebook відхилив доступ підключення «{name}».',
  'facebookBroken.wait':
    'Доки ви не підключите його знову, ліди з форм його сторінок не можна прочитати: вони чекають у Facebook, тож підключіть його якнайшвидше.',
  'facebookBroken.action': 'Підключити Facebook',
  'facebookBroken.why':
    'Ви отримали цей лист, бо підключення Facebook вашого акаунта LeadRelay перестало працювати. Він надходить один раз на кожен збій.',

  'held.subject': 'LeadRelay: ваші ліди утримуються',
  'held.preview': 'Нові ліди зберігаються, але не надсилаються до вашої CRM.',
  'held.heading': 'Ваші ліди утримуються',
  'held.causeExpired':
    'Термін дії вашого тарифу LeadRelay закінчився: нові ліди приймаються та зберігаються, але не надсилаються до вашої CRM.',
  'held.causeLimit':
    'Ліміт лідів вашого тарифу на цей місяць вичерпано: нові ліди приймаються та зберігаються, але не надсилаються до вашої CRM до кінця місяця.',
  'held.releaseExpired':
    'Нічого не втрачено: протягом хвилини після оплати їх буде доставлено в тому порядку, в якому вони надійшли.',
  'held.releaseLimit':
    'Нічого не втрачено: їх буде доставлено в порядку надходження протягом хвилини після початку нового місяця або переходу на більший тариф.',
  'held.kept':
    'Утримані ліди зберігаються щонайменше {days}; ми напишемо, перш ніж будь-який із них буде знято з черги.',
  'held.action': 'Вибрати тариф',
  'held.why':
    'Ви отримали цей лист, бо ліди вашого акаунта LeadRelay почали утримуватися. Він надходить один раз щоразу, коли це стається.',

  'drop.subject_one': 'LeadRelay: {count} лід не буде доставлено після {day}',
  'drop.subject_few': 'LeadRelay: {count} ліди не буде доставлено після {day}',
  'drop.subject_many': 'LeadRelay: {count} лідів не буде доставлено після {day}',
  'drop.subject_other': 'LeadRelay: {count} ліда не буде доставлено після {day}',
  'drop.preview': 'Частину утриманих лідів скоро буде знято з черги.',
  'drop.heading': 'Частину утриманих лідів скоро буде знято з черги',
  'drop.body_one':
    '{count} лід утримується {days} або довше. Якщо утримання не закінчиться раніше, {day} (UTC) його буде знято з черги: він залишиться в журналі лідів із позначкою «не доставлено» і нікуди не надсилатиметься.',
  'drop.body_few':
    '{count} ліди утримуються {days} або довше. Якщо утримання не закінчиться раніше, {day} (UTC) їх буде знято з черги: вони залишаться в журналі лідів із позначкою «не доставлено» і нікуди не надсилатимуться.',
  'drop.body_many':
    '{count} лідів утримуються {days} або довше. Якщо утримання не закінчиться раніше, {day} (UTC) їх буде знято з черги: вони залишаться в журналі лідів із позначкою «не доставлено» і нікуди не надсилатимуться.',
  'drop.body_other':
    '{count} ліда утримуються {days} або довше. Якщо утримання не закінчиться раніше, {day} (UTC) їх буде знято з черги: вони залишаться в журналі лідів із позначкою «не доставлено» і нікуди не надсилатимуться.',
  'drop.payExpired_one': 'Оплатіть тариф до цієї дати, і його буде доставлено в порядку надходження.',
  'drop.payExpired_few': 'Оплатіть тариф до цієї дати, і їх буде доставлено в порядку надходження.',
  'drop.payExpired_many': 'Оплатіть тариф до цієї дати, і їх буде доставлено в порядку надходження.',
  'drop.payExpired_other': 'Оплатіть тариф до цієї дати, і їх буде доставлено в порядку надходження.',
  'drop.payLimit_one': 'Перейдіть на більший тариф до цієї дати, і його буде доставлено в порядку надходження.',
  'drop.payLimit_few': 'Перейдіть на більший тариф до цієї дати, і їх буде доставлено в порядку надходження.',
  'drop.payLimit_many': 'Перейдіть на більший тариф до цієї дати, і їх буде доставлено в порядку надходження.',
  'drop.payLimit_other': 'Перейдіть на більший тариф до цієї дати, і їх буде доставлено в порядку надходження.',
  'drop.action': 'Вибрати тариф',
  'drop.why':
    'Ви отримали цей лист, бо утримані ліди вашого акаунта наближаються до зняття з черги. Ми пишемо раз на тиждень, доки це так.',

  'renewalPaid.subject': 'LeadRelay: тариф продовжено',
  'renewalPaid.preview': 'Тариф «{plan}» сплачено до {date}.',
  'renewalPaid.heading': 'Тариф продовжено',
  'renewalPaid.body': 'Тариф «{plan}» продовжено збереженою карткою.',
  'renewalPaid.until': 'Його сплачено до {date}. Рахунок — на сторінці «Оплата».',
  'renewalPaid.action': 'Відкрити оплату',
  'renewalPaid.why':
    'Ви отримали цей лист, бо тариф вашого акаунта LeadRelay продовжується автоматично. Щоб вимкнути це, видаліть картку на сторінці «Оплата».',

  'renewalFailed.subject': 'LeadRelay: банк відхилив оплату продовження',
  'renewalFailed.preview': 'Банк відхилив списання за тариф «{plan}».',
  'renewalFailed.heading': 'Оплату продовження відхилено',
  'renewalFailed.body': 'Банк відхилив списання за тариф «{plan}».',
  'renewalFailed.paidUntil': 'Тариф сплачено до {date}.',
  'renewalFailed.retry': 'Ми спробуємо ще раз {date}. Також можна оплатити зараз іншою карткою.',
  'renewalFailed.stopped': 'Більше спроб не буде: оплатіть тариф на сторінці тарифів, щоб ліди й далі доходили.',
  'renewalFailed.action': 'Оплатити',
  'renewalFailed.why':
    'Ви отримали цей лист, бо тариф вашого акаунта LeadRelay продовжується автоматично. Ліди не губляться: після закінчення тарифу вони зберігаються й будуть доставлені після оплати.',

  // Why an integration failed (a reason code of shared REASON_CODES, lib/mail/reasons.ts).
  'reason.URL_NOT_ALLOWED': 'Адреса недоступна: приватна чи службова мережа.',
  'reason.TOO_MANY_REDIRECTS': 'Сервер перенаправляв запит забагато разів.',
  'reason.TIMEOUT': 'Сервер не відповів вчасно.',
  'reason.ABORTED': 'Запит перервано.',
  'reason.NETWORK': 'Не вдалося зʼєднатися з сервером.',
  'reason.AUTH': 'Сервер відхилив авторизацію.',
  'reason.RATE_LIMITED': 'Сервер просить зачекати: забагато запитів.',
  'reason.HTTP_5XX': 'Помилка на боці сервера.',
  'reason.HTTP_4XX': 'Сервер відхилив запит.',
  'reason.HTTP_UNEXPECTED': 'Сервер відповів неочікувано.',
  'reason.CONFIGURATION': 'Сервіс не приймає налаштування інтеграції.',
  'reason.INTEGRATION_SETTINGS_INVALID': 'Інтеграцію не налаштовано або налаштування неповні.',
  'reason.INTEGRATION_AUTH_UNREADABLE': 'Збережені облікові дані інтеграції неможливо прочитати: підключіть її знову.',
  'reason.SMS_QUIET_HOURS': 'Тихі години: SMS піде, щойно вони скінчаться.',
  'reason.SMS_NO_PHONE': 'SMS не надіслано: у ліда немає телефону.',
  'reason.SMS_PHONE_INVALID': 'SMS не надіслано: це не номер телефону.',
  'reason.SMS_PHONE_NOT_MOBILE': 'SMS не надіслано: номер не мобільний.',
  'reason.SMS_PHONE_FOREIGN': 'SMS не надіслано: номер не український.',
  'reason.SMS_MANAGER_NO_PHONE': 'SMS менеджерові не надіслано: немає його мобільного.',
  'reason.SMS_MANAGER_PHONE_INVALID': 'SMS менеджерові не надіслано: неправильний номер.',
  'reason.SMS_MANAGER_PHONE_NOT_MOBILE': 'SMS менеджерові не надіслано: номер не мобільний.',
  'reason.SMS_TEXT_EMPTY': 'SMS не надіслано: текст порожній.',
  'reason.ALPHASMS_ACCESS_DENIED': 'AlphaSMS не прийняв API-ключ.',
  'reason.ALPHASMS_SENDER_INVALID': 'AlphaSMS не знає такого альфа-імені.',
  'reason.ALPHASMS_VIBER_SENDER_INVALID': 'AlphaSMS не має такого Viber-відправника.',
  'reason.ALPHASMS_LOW_BALANCE': 'На балансі AlphaSMS забракло коштів.',
  'reason.ALPHASMS_PHONE_REJECTED': 'AlphaSMS не прийняв номер.',
  'reason.ALPHASMS_ERROR': 'AlphaSMS тимчасово не прийняв повідомлення.',
  'reason.GA_VALIDATION_FAILED': 'Сервер валідації Google не прийняв подію.',
  'reason.GA_DEBUG_UNEXPECTED': 'Сервер валідації Google відповів незрозуміло.',
  'reason.USPACY_REFRESH_FAILED': 'Uspacy завершила сесію: увійдіть знову.',
  'reason.USPACY_SIGN_IN_FAILED': 'Uspacy не прийняла e-mail і пароль.',
  'reason.USPACY_VALIDATION': 'Uspacy відхилила дані ліда.',
  'reason.USPACY_REFUSED': 'Uspacy відхилила запит.',
  'reason.LEAD_NO_CONTACT':
    'У ліда немає ні телефону, ні e-mail, ні імені, тож порожній контакт не створено: перевірте поля й фільтри його джерела.',
  'reason.HOROSHOP_AUTH_FAILED': 'Магазин Horoshop не прийняв логін і пароль.',
  'reason.NO_ACTIVE_DESTINATION': 'Немає увімкненого призначення: лід збережено, але нікуди не надіслано.',
  'reason.DESTINATION_BROKEN': 'Одне з призначень не приймає ліди.',
  'reason.DESTINATION_RETRYING': 'Одне з призначень не відповідає: ліди чекають на повторну спробу.',
  'reason.PAUSED': 'Доставку призупинено після кількох помилок поспіль.',
  'reason.FACEBOOK_TOKEN': 'Facebook відкликав доступ: підключіть акаунт знову.',
  'reason.FILTERED': 'Лід не пройшов фільтр.',
  'reason.DUPLICATE_OF': 'Повтор уже отриманого ліда.',
  'reason.UNKNOWN': 'Сервіс повідомив про помилку, яку ми не розпізнали.',
  'reason.TIMEOUT_AT': 'Сервер {host} не відповів за {seconds} с.',
  'reason.httpStatus': 'Код відповіді: HTTP {status}.',
  'reason.host': 'Адреса: {host}.',
  'escalated.subject_one': 'LeadRelay: {count} лід передано іншому менеджеру',
  'escalated.subject_few': 'LeadRelay: {count} ліди передано іншим менеджерам',
  'escalated.subject_many': 'LeadRelay: {count} лідів передано іншим менеджерам',
  'escalated.subject_other': 'LeadRelay: {count} ліда передано іншим менеджерам',
  'escalated.preview': 'Менеджер не взяв заявку вчасно, і її передано наступному на зміні.',
  'escalated.heading': 'Заявки, які не взяли вчасно, передано далі',
  'escalated.body_one': '{count} лід ніхто не взяв вчасно, тож його передано наступному менеджеру на зміні:',
  'escalated.body_few': '{count} ліди ніхто не взяв вчасно, тож їх передано наступним менеджерам на зміні:',
  'escalated.body_many': '{count} лідів ніхто не взяв вчасно, тож їх передано наступним менеджерам на зміні:',
  'escalated.body_other': '{count} ліда ніхто не взяв вчасно, тож їх передано наступним менеджерам на зміні:',
  'escalated.line': '{lead} ({source}): {from} → {to}',
  'escalated.more_one': 'І ще {count} лід.',
  'escalated.more_few': 'І ще {count} ліди.',
  'escalated.more_many': 'І ще {count} лідів.',
  'escalated.more_other': 'І ще {count} ліда.',
  'escalated.noName': 'Без імені',
  'escalated.action': 'Відкрити журнал лідів',
  'escalated.why':
    'Ви отримали цей лист, бо в джерелі увімкнено передачу ліда далі, якщо його не взяли за вказаний час. Листи збираються щохвилини, а не по одному на кожну передачу.',

  'drought.subject': 'LeadRelay: з «{name}» перестали надходити ліди',
  'drought.preview': 'Останній лід з «{name}» надійшов {since}.',
  'drought.heading': 'З «{name}» не надходять ліди',
  'drought.body':
    'Останній лід з «{name}» надійшов {since}. За історією цього джерела за цей час мало б прийти близько {expected}, а не прийшло жодного.',
  'drought.check':
    'Перевірте, чи працює форма на сайті, чи не зупинена реклама і чи не змінилася адреса вебхука. Вихідні й нічні години, коли лідів зазвичай немає, ми не рахуємо.',
  'drought.later':
    'Ми не писатимемо знову, доки посуха триває; наступний лист прийде, лише якщо ліди повернуться і знову зникнуть.',
  'drought.action': 'Відкрити вартового',
  'drought.why':
    'Ви отримали цей лист, бо вартовий LeadRelay стежить за джерелами лідів вашого акаунта. Вимкнути такі листи можна в налаштуваннях вартового.',

  'expiry.subject': 'LeadRelay: доступ до «{name}» спливає {day}',
  'expiry.preview': 'Підключіть «{name}» знову до {day}, щоб ліди не загубилися.',
  'expiry.heading': 'Доступ до «{name}» скоро спливе',
  'expiry.body':
    'Доступ LeadRelay до «{name}» ({service}) діє до {time}. Після цього ми не зможемо працювати з ним, доки ви не підключите його знову.',
  'expiry.renewRefresh':
    'Доступ подовжується сам, коли через підключення проходять ліди. Якщо ним давно не користувалися, підключіть його знову зараз: це займе хвилину.',
  'expiry.renewFacebook':
    'Facebook видає такий доступ приблизно на 60 днів. Підключіть профіль знову, щоб отримати новий.',
  'expiry.action': 'Підключити знову',
  'expiry.why':
    'Ви отримали цей лист, бо вартовий LeadRelay попереджає за 7 днів і за 1 день до кінця доступу. Вимкнути такі листи можна в налаштуваннях вартового.',

  'weekly.subject': 'LeadRelay: ваш тиждень {period}',
  'weekly.preview': 'Отримано лідів: {received}. Медіана реакції: {median}.',
  'weekly.heading': 'Тиждень {period}',
  'weekly.received': 'Отримано лідів: {received}; доставлено: {delivered}; утримано: {held}; не доставлено: {failed}.',
  'weekly.speed': 'Швидкість реакції менеджерів: медіана {median}, 90-й перцентиль {p90}.',
  'weekly.within': 'Відреагували протягом 5 хв: {w5}, 15 хв: {w15}, години: {w60}. Лідів, яких ніхто не взяв: {never}.',
  'weekly.noReactions': 'Цього тижня менеджери не відмітили реакції на жоден лід.',
  'weekly.source': '«{name}»: отримано {received}, доставлено {delivered}, утримано {held}, не доставлено {failed}.',
  'weekly.noLeads': 'Цього тижня лідів не було.',
  'weekly.minutes': '{m} хв',
  'weekly.hours': '{h} год {m} хв',
  'weekly.none': 'немає',
  'weekly.action': 'Відкрити звіт',
  'weekly.why':
    'Ви отримали цей лист, бо щотижневий звіт LeadRelay увімкнено для вашого акаунта. Вимкнути його можна в налаштуваннях вартового.',
} as const;
