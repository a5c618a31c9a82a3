import type { Translations } from './types';

/**
 * Notices about passkeys (docs/two-factor.md "Passkeys"): sent when one is added to the account or removed from it,
 * so an owner who did not do it learns of it. The link is the product's account page; it carries no token.
 */
export const passkeyAdded: Translations = {
  RUS: {
    subject: 'К вашей учётной записи добавлен ключ доступа',
    lines: [
      'К вашей учётной записи добавлен новый ключ доступа: с ним вход выполняется с помощью блокировки экрана, отпечатка пальца или лица на вашем устройстве, без пароля и кода.',
      'Если это были не вы, немедленно удалите ключ доступа в настройках безопасности и смените пароль.',
    ],
    button: 'Открыть настройки безопасности',
  },
  UKR: {
    subject: 'До вашого облікового запису додано ключ доступу',
    lines: [
      'До вашого облікового запису додано новий ключ доступу: з ним вхід виконується за допомогою блокування екрана, відбитка пальця чи обличчя на вашому пристрої, без пароля й коду.',
      'Якщо це були не ви, негайно видаліть ключ доступу в налаштуваннях безпеки та змініть пароль.',
    ],
    button: 'Відкрити налаштування безпеки',
  },
  ENG: {
    subject: 'A passkey was added to your account',
    lines: [
      "A new passkey was added to your account: it signs you in with your device's screen lock, fingerprint or face, without a password or code.",
      'If this was not you, remove the passkey in your security settings at once and change your password.',
    ],
    button: 'Open security settings',
  },
  SPA: {
    subject: 'Se ha añadido una llave de acceso a tu cuenta',
    lines: [
      'Se ha añadido una nueva llave de acceso a tu cuenta: con ella inicias sesión con el bloqueo de pantalla, la huella o el rostro de tu dispositivo, sin contraseña ni código.',
      'Si no has sido tú, elimina de inmediato la llave de acceso en la configuración de seguridad y cambia tu contraseña.',
    ],
    button: 'Abrir la configuración de seguridad',
  },
  GERMAN: {
    subject: 'Ihrem Konto wurde ein Passkey hinzugefügt',
    lines: [
      'Ihrem Konto wurde ein neuer Passkey hinzugefügt: Damit melden Sie sich mit der Displaysperre, dem Fingerabdruck oder dem Gesicht Ihres Geräts an, ohne Passwort oder Code.',
      'Wenn Sie das nicht waren, entfernen Sie den Passkey sofort in Ihren Sicherheitseinstellungen und ändern Sie Ihr Passwort.',
    ],
    button: 'Sicherheitseinstellungen öffnen',
  },
  POL: {
    subject: 'Do Twojego konta dodano klucz dostępu',
    lines: [
      'Do Twojego konta dodano nowy klucz dostępu: logujesz się nim za pomocą blokady ekranu, odcisku palca lub twarzy na swoim urządzeniu, bez hasła i kodu.',
      'Jeśli to nie Ty, natychmiast usuń klucz dostępu w ustawieniach bezpieczeństwa i zmień hasło.',
    ],
    button: 'Otwórz ustawienia bezpieczeństwa',
  },
  FRA: {
    subject: 'Une clé d’accès a été ajoutée à votre compte',
    lines: [
      'Une nouvelle clé d’accès a été ajoutée à votre compte\u00a0: elle vous connecte avec le verrouillage d’écran, l’empreinte digitale ou le visage de votre appareil, sans mot de passe ni code.',
      'Si ce n’était pas vous, supprimez immédiatement la clé d’accès dans vos paramètres de sécurité et changez votre mot de passe.',
    ],
    button: 'Ouvrir les paramètres de sécurité',
  },
  TURKEY: {
    subject: 'Hesabınıza bir geçiş anahtarı eklendi',
    lines: [
      'Hesabınıza yeni bir geçiş anahtarı eklendi: bununla cihazınızın ekran kilidi, parmak iziniz veya yüzünüzle, şifre ya da kod olmadan oturum açarsınız.',
      'Bunu siz yapmadıysanız geçiş anahtarını güvenlik ayarlarınızdan hemen kaldırın ve şifrenizi değiştirin.',
    ],
    button: 'Güvenlik ayarlarını aç',
  },
};

export const passkeyRemoved: Translations = {
  RUS: {
    subject: 'Из вашей учётной записи удалён ключ доступа',
    lines: [
      'Из вашей учётной записи удалён ключ доступа: войти с ним больше нельзя.',
      'Если это были не вы, смените пароль и проверьте настройки безопасности учётной записи.',
    ],
    button: 'Открыть настройки безопасности',
  },
  UKR: {
    subject: 'З вашого облікового запису видалено ключ доступу',
    lines: [
      'З вашого облікового запису видалено ключ доступу: увійти з ним більше не можна.',
      'Якщо це були не ви, змініть пароль і перевірте налаштування безпеки облікового запису.',
    ],
    button: 'Відкрити налаштування безпеки',
  },
  ENG: {
    subject: 'A passkey was removed from your account',
    lines: [
      'A passkey was removed from your account: it no longer signs you in.',
      'If this was not you, change your password and check the security settings of your account.',
    ],
    button: 'Open security settings',
  },
  SPA: {
    subject: 'Se ha eliminado una llave de acceso de tu cuenta',
    lines: [
      'Se ha eliminado una llave de acceso de tu cuenta: ya no sirve para iniciar sesión.',
      'Si no has sido tú, cambia tu contraseña y revisa la configuración de seguridad de tu cuenta.',
    ],
    button: 'Abrir la configuración de seguridad',
  },
  GERMAN: {
    subject: 'Ein Passkey wurde aus Ihrem Konto entfernt',
    lines: [
      'Ein Passkey wurde aus Ihrem Konto entfernt: Mit ihm ist keine Anmeldung mehr möglich.',
      'Wenn Sie das nicht waren, ändern Sie Ihr Passwort und prüfen Sie die Sicherheitseinstellungen Ihres Kontos.',
    ],
    button: 'Sicherheitseinstellungen öffnen',
  },
  POL: {
    subject: 'Z Twojego konta usunięto klucz dostępu',
    lines: [
      'Z Twojego konta usunięto klucz dostępu: nie można się już nim zalogować.',
      'Jeśli to nie Ty, zmień hasło i sprawdź ustawienia bezpieczeństwa konta.',
    ],
    button: 'Otwórz ustawienia bezpieczeństwa',
  },
  FRA: {
    subject: 'Une clé d’accès a été supprimée de votre compte',
    lines: [
      'Une clé d’accès a été supprimée de votre compte\u00a0: elle ne permet plus de vous connecter.',
      'Si ce n’était pas vous, changez votre mot de passe et vérifiez les paramètres de sécurité de votre compte.',
    ],
    button: 'Ouvrir les paramètres de sécurité',
  },
  TURKEY: {
    subject: 'Hesabınızdan bir geçiş anahtarı kaldırıldı',
    lines: [
      'Hesabınızdan bir geçiş anahtarı kaldırıldı: artık bununla oturum açılamaz.',
      'Bunu siz yapmadıysanız şifrenizi değiştirin ve hesabınızın güvenlik ayarlarını kontrol edin.',
    ],
    button: 'Güvenlik ayarlarını aç',
  },
};
