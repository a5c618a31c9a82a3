import type { Translations } from './types';

/**
 * Notices about the second factor (docs/two-factor.md): sent when one is added or removed and when a new set of
 * backup codes replaces the old one, so an owner who did not do it learns of it. The link is the product's account
 * page; it carries no token.
 */
export const twoFactorEnabled: Translations = {
  RUS: {
    subject: 'Двухфакторная аутентификация включена',
    lines: [
      'Для вашей учётной записи включена двухфакторная аутентификация: при входе теперь нужен код из приложения-аутентификатора.',
      'Сохраните резервные коды в надёжном месте: они помогут войти, если телефон будет недоступен.',
      'Если это были не вы, смените пароль и проверьте настройки безопасности учётной записи.',
    ],
    button: 'Открыть настройки безопасности',
  },
  UKR: {
    subject: 'Двофакторну автентифікацію увімкнено',
    lines: [
      'Для вашого облікового запису увімкнено двофакторну автентифікацію: під час входу тепер потрібен код із застосунку-автентифікатора.',
      'Збережіть резервні коди в надійному місці: вони допоможуть увійти, якщо телефон буде недоступний.',
      'Якщо це були не ви, змініть пароль і перевірте налаштування безпеки облікового запису.',
    ],
    button: 'Відкрити налаштування безпеки',
  },
  ENG: {
    subject: 'Two-factor authentication is on',
    lines: [
      'Two-factor authentication was turned on for your account: signing in now also asks for a code from your authenticator app.',
      'Keep your backup codes somewhere safe: they let you sign in when your phone is not at hand.',
      'If this was not you, change your password and check the security settings of your account.',
    ],
    button: 'Open security settings',
  },
  SPA: {
    subject: 'La verificación en dos pasos está activada',
    lines: [
      'Se ha activado la verificación en dos pasos en tu cuenta: al iniciar sesión se pedirá también un código de tu aplicación de autenticación.',
      'Guarda tus códigos de respaldo en un lugar seguro: te permiten entrar si no tienes el teléfono a mano.',
      'Si no has sido tú, cambia tu contraseña y revisa la configuración de seguridad de tu cuenta.',
    ],
    button: 'Abrir la configuración de seguridad',
  },
  GERMAN: {
    subject: 'Zwei-Faktor-Authentifizierung ist aktiviert',
    lines: [
      'Für Ihr Konto wurde die Zwei-Faktor-Authentifizierung aktiviert: Bei der Anmeldung wird nun zusätzlich ein Code aus Ihrer Authenticator-App abgefragt.',
      'Bewahren Sie Ihre Backup-Codes sicher auf: Mit ihnen melden Sie sich an, wenn Ihr Telefon nicht zur Hand ist.',
      'Wenn Sie das nicht waren, ändern Sie Ihr Passwort und prüfen Sie die Sicherheitseinstellungen Ihres Kontos.',
    ],
    button: 'Sicherheitseinstellungen öffnen',
  },
  POL: {
    subject: 'Uwierzytelnianie dwuskładnikowe jest włączone',
    lines: [
      'Na Twoim koncie włączono uwierzytelnianie dwuskładnikowe: przy logowaniu potrzebny będzie także kod z aplikacji uwierzytelniającej.',
      'Przechowuj kody zapasowe w bezpiecznym miejscu: pozwolą Ci się zalogować, gdy nie masz telefonu pod ręką.',
      'Jeśli to nie Ty, zmień hasło i sprawdź ustawienia bezpieczeństwa konta.',
    ],
    button: 'Otwórz ustawienia bezpieczeństwa',
  },
  FRA: {
    subject: 'La double authentification est activée',
    lines: [
      'La double authentification a été activée sur votre compte\u00a0: la connexion demande désormais aussi un code de votre application d’authentification.',
      'Conservez vos codes de secours en lieu sûr\u00a0: ils vous permettent de vous connecter quand votre téléphone n’est pas à portée de main.',
      'Si ce n’était pas vous, changez votre mot de passe et vérifiez les paramètres de sécurité de votre compte.',
    ],
    button: 'Ouvrir les paramètres de sécurité',
  },
  TURKEY: {
    subject: 'İki adımlı doğrulama açıldı',
    lines: [
      'Hesabınız için iki adımlı doğrulama açıldı: oturum açarken artık doğrulama uygulamanızdan bir kod da istenecek.',
      'Yedek kodlarınızı güvenli bir yerde saklayın: telefonunuz yanınızda olmadığında oturum açmanızı sağlar.',
      'Bunu siz yapmadıysanız şifrenizi değiştirin ve hesabınızın güvenlik ayarlarını kontrol edin.',
    ],
    button: 'Güvenlik ayarlarını aç',
  },
};

export const twoFactorDisabled: Translations = {
  RUS: {
    subject: 'Двухфакторная аутентификация отключена',
    lines: [
      'Для вашей учётной записи отключена двухфакторная аутентификация: для входа теперь достаточно пароля.',
      'Резервные коды и доверенные устройства больше не действуют.',
      'Если это были не вы, немедленно смените пароль и снова включите двухфакторную аутентификацию.',
    ],
    button: 'Открыть настройки безопасности',
  },
  UKR: {
    subject: 'Двофакторну автентифікацію вимкнено',
    lines: [
      'Для вашого облікового запису вимкнено двофакторну автентифікацію: для входу тепер достатньо пароля.',
      'Резервні коди й довірені пристрої більше не діють.',
      'Якщо це були не ви, негайно змініть пароль і знову увімкніть двофакторну автентифікацію.',
    ],
    button: 'Відкрити налаштування безпеки',
  },
  ENG: {
    subject: 'Two-factor authentication is off',
    lines: [
      'Two-factor authentication was turned off for your account: your password alone now signs you in.',
      'Your backup codes and trusted devices no longer work.',
      'If this was not you, change your password at once and turn two-factor authentication back on.',
    ],
    button: 'Open security settings',
  },
  SPA: {
    subject: 'La verificación en dos pasos está desactivada',
    lines: [
      'Se ha desactivado la verificación en dos pasos en tu cuenta: ahora basta tu contraseña para iniciar sesión.',
      'Tus códigos de respaldo y tus dispositivos de confianza ya no sirven.',
      'Si no has sido tú, cambia tu contraseña de inmediato y vuelve a activar la verificación en dos pasos.',
    ],
    button: 'Abrir la configuración de seguridad',
  },
  GERMAN: {
    subject: 'Zwei-Faktor-Authentifizierung ist deaktiviert',
    lines: [
      'Für Ihr Konto wurde die Zwei-Faktor-Authentifizierung deaktiviert: Zur Anmeldung genügt jetzt Ihr Passwort.',
      'Ihre Backup-Codes und vertrauenswürdigen Geräte gelten nicht mehr.',
      'Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort und aktivieren Sie die Zwei-Faktor-Authentifizierung wieder.',
    ],
    button: 'Sicherheitseinstellungen öffnen',
  },
  POL: {
    subject: 'Uwierzytelnianie dwuskładnikowe jest wyłączone',
    lines: [
      'Na Twoim koncie wyłączono uwierzytelnianie dwuskładnikowe: do logowania wystarczy teraz samo hasło.',
      'Kody zapasowe i zaufane urządzenia przestały działać.',
      'Jeśli to nie Ty, natychmiast zmień hasło i ponownie włącz uwierzytelnianie dwuskładnikowe.',
    ],
    button: 'Otwórz ustawienia bezpieczeństwa',
  },
  FRA: {
    subject: 'La double authentification est désactivée',
    lines: [
      'La double authentification a été désactivée sur votre compte\u00a0: votre mot de passe suffit désormais pour vous connecter.',
      'Vos codes de secours et vos appareils de confiance ne fonctionnent plus.',
      'Si ce n’était pas vous, changez immédiatement votre mot de passe et réactivez la double authentification.',
    ],
    button: 'Ouvrir les paramètres de sécurité',
  },
  TURKEY: {
    subject: 'İki adımlı doğrulama kapatıldı',
    lines: [
      'Hesabınız için iki adımlı doğrulama kapatıldı: oturum açmak için artık yalnızca şifreniz yeterli.',
      'Yedek kodlarınız ve güvenilir cihazlarınız artık geçerli değil.',
      'Bunu siz yapmadıysanız hemen şifrenizi değiştirin ve iki adımlı doğrulamayı yeniden açın.',
    ],
    button: 'Güvenlik ayarlarını aç',
  },
};

export const backupCodesRegenerated: Translations = {
  RUS: {
    subject: 'Созданы новые резервные коды',
    lines: [
      'Для вашей учётной записи создан новый набор резервных кодов.',
      'Прежние резервные коды больше не действуют: сохраните новые в надёжном месте.',
      'Если это были не вы, смените пароль и проверьте настройки безопасности учётной записи.',
    ],
    button: 'Открыть настройки безопасности',
  },
  UKR: {
    subject: 'Створено нові резервні коди',
    lines: [
      'Для вашого облікового запису створено новий набір резервних кодів.',
      'Попередні резервні коди більше не діють: збережіть нові в надійному місці.',
      'Якщо це були не ви, змініть пароль і перевірте налаштування безпеки облікового запису.',
    ],
    button: 'Відкрити налаштування безпеки',
  },
  ENG: {
    subject: 'New backup codes were created',
    lines: [
      'A new set of backup codes was created for your account.',
      'Your previous backup codes no longer work: keep the new ones somewhere safe.',
      'If this was not you, change your password and check the security settings of your account.',
    ],
    button: 'Open security settings',
  },
  SPA: {
    subject: 'Se han creado nuevos códigos de respaldo',
    lines: [
      'Se ha creado un nuevo conjunto de códigos de respaldo para tu cuenta.',
      'Tus códigos de respaldo anteriores ya no sirven: guarda los nuevos en un lugar seguro.',
      'Si no has sido tú, cambia tu contraseña y revisa la configuración de seguridad de tu cuenta.',
    ],
    button: 'Abrir la configuración de seguridad',
  },
  GERMAN: {
    subject: 'Neue Backup-Codes wurden erstellt',
    lines: [
      'Für Ihr Konto wurde ein neuer Satz Backup-Codes erstellt.',
      'Ihre bisherigen Backup-Codes gelten nicht mehr: Bewahren Sie die neuen sicher auf.',
      'Wenn Sie das nicht waren, ändern Sie Ihr Passwort und prüfen Sie die Sicherheitseinstellungen Ihres Kontos.',
    ],
    button: 'Sicherheitseinstellungen öffnen',
  },
  POL: {
    subject: 'Utworzono nowe kody zapasowe',
    lines: [
      'Dla Twojego konta utworzono nowy zestaw kodów zapasowych.',
      'Poprzednie kody zapasowe przestały działać: przechowuj nowe w bezpiecznym miejscu.',
      'Jeśli to nie Ty, zmień hasło i sprawdź ustawienia bezpieczeństwa konta.',
    ],
    button: 'Otwórz ustawienia bezpieczeństwa',
  },
  FRA: {
    subject: 'De nouveaux codes de secours ont été créés',
    lines: [
      'Un nouvel ensemble de codes de secours a été créé pour votre compte.',
      'Vos anciens codes de secours ne fonctionnent plus\u00a0: conservez les nouveaux en lieu sûr.',
      'Si ce n’était pas vous, changez votre mot de passe et vérifiez les paramètres de sécurité de votre compte.',
    ],
    button: 'Ouvrir les paramètres de sécurité',
  },
  TURKEY: {
    subject: 'Yeni yedek kodlar oluşturuldu',
    lines: [
      'Hesabınız için yeni bir yedek kod seti oluşturuldu.',
      'Önceki yedek kodlarınız artık geçerli değil: yenilerini güvenli bir yerde saklayın.',
      'Bunu siz yapmadıysanız şifrenizi değiştirin ve hesabınızın güvenlik ayarlarını kontrol edin.',
    ],
    button: 'Güvenlik ayarlarını aç',
  },
};

export const twoFactorReset: Translations = {
  RUS: {
    subject: 'Администратор сбросил двухфакторную аутентификацию',
    lines: [
      'Администратор сервиса удалил второй фактор вашей учётной записи: приложение-аутентификатор, резервные коды, ключи доступа и доверенные устройства больше не действуют.',
      'Для входа теперь достаточно пароля. Снова включите двухфакторную аутентификацию в настройках безопасности.',
      'Если вы об этом не просили, свяжитесь со службой поддержки и смените пароль.',
    ],
    button: 'Открыть настройки безопасности',
  },
  UKR: {
    subject: 'Адміністратор скинув двофакторну автентифікацію',
    lines: [
      'Адміністратор сервісу видалив другий фактор вашого облікового запису: застосунок-автентифікатор, резервні коди, ключі доступу й довірені пристрої більше не діють.',
      'Для входу тепер достатньо пароля. Знову увімкніть двофакторну автентифікацію в налаштуваннях безпеки.',
      'Якщо ви про це не просили, зверніться до служби підтримки та змініть пароль.',
    ],
    button: 'Відкрити налаштування безпеки',
  },
  ENG: {
    subject: 'An administrator reset your two-factor authentication',
    lines: [
      'An administrator of the service removed the second factor of your account: your authenticator app, backup codes, passkeys and trusted devices no longer work.',
      'Your password alone now signs you in. Turn two-factor authentication back on in your security settings.',
      'If you did not ask for this, contact support and change your password.',
    ],
    button: 'Open security settings',
  },
  SPA: {
    subject: 'Un administrador ha restablecido tu verificación en dos pasos',
    lines: [
      'Un administrador del servicio ha eliminado el segundo factor de tu cuenta: tu aplicación de autenticación, tus códigos de respaldo, tus llaves de acceso y tus dispositivos de confianza ya no sirven.',
      'Ahora basta tu contraseña para iniciar sesión. Vuelve a activar la verificación en dos pasos en la configuración de seguridad.',
      'Si no lo has pedido, ponte en contacto con el soporte y cambia tu contraseña.',
    ],
    button: 'Abrir la configuración de seguridad',
  },
  GERMAN: {
    subject: 'Ein Administrator hat Ihre Zwei-Faktor-Authentifizierung zurückgesetzt',
    lines: [
      'Ein Administrator des Dienstes hat den zweiten Faktor Ihres Kontos entfernt: Ihre Authenticator-App, Ihre Backup-Codes, Ihre Passkeys und Ihre vertrauenswürdigen Geräte gelten nicht mehr.',
      'Zur Anmeldung genügt jetzt Ihr Passwort. Aktivieren Sie die Zwei-Faktor-Authentifizierung in Ihren Sicherheitseinstellungen wieder.',
      'Wenn Sie das nicht angefordert haben, wenden Sie sich an den Support und ändern Sie Ihr Passwort.',
    ],
    button: 'Sicherheitseinstellungen öffnen',
  },
  POL: {
    subject: 'Administrator zresetował uwierzytelnianie dwuskładnikowe',
    lines: [
      'Administrator usługi usunął drugi składnik Twojego konta: aplikacja uwierzytelniająca, kody zapasowe, klucze dostępu i zaufane urządzenia przestały działać.',
      'Do logowania wystarczy teraz samo hasło. Włącz ponownie uwierzytelnianie dwuskładnikowe w ustawieniach bezpieczeństwa.',
      'Jeśli o to nie prosiłeś, skontaktuj się z pomocą techniczną i zmień hasło.',
    ],
    button: 'Otwórz ustawienia bezpieczeństwa',
  },
  FRA: {
    subject: 'Un administrateur a réinitialisé votre double authentification',
    lines: [
      'Un administrateur du service a supprimé le second facteur de votre compte\u00a0: votre application d’authentification, vos codes de secours, vos clés d’accès et vos appareils de confiance ne fonctionnent plus.',
      'Votre mot de passe suffit désormais pour vous connecter. Réactivez la double authentification dans vos paramètres de sécurité.',
      'Si vous ne l’avez pas demandé, contactez le support et changez votre mot de passe.',
    ],
    button: 'Ouvrir les paramètres de sécurité',
  },
  TURKEY: {
    subject: 'Bir yönetici iki adımlı doğrulamanızı sıfırladı',
    lines: [
      'Hizmetin bir yöneticisi hesabınızın ikinci adımını kaldırdı: doğrulama uygulamanız, yedek kodlarınız, geçiş anahtarlarınız ve güvenilir cihazlarınız artık geçerli değil.',
      'Oturum açmak için artık yalnızca şifreniz yeterli. İki adımlı doğrulamayı güvenlik ayarlarınızdan yeniden açın.',
      'Bunu siz istemediyseniz destek ekibiyle iletişime geçin ve şifrenizi değiştirin.',
    ],
    button: 'Güvenlik ayarlarını aç',
  },
};
