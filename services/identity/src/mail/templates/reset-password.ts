import type { Translations } from './types';

/** Sent after POST /request-password-reset; the link opens the reset page with a single-use token. */
export const resetPassword: Translations = {
  RUS: {
    subject: 'Сброс пароля',
    lines: [
      'Мы получили запрос на сброс пароля вашей учётной записи.',
      'Нажмите кнопку ниже, чтобы задать новый пароль. Ссылка одноразовая и скоро перестанет действовать.',
      'Если вы не запрашивали сброс, просто проигнорируйте это письмо: ваш пароль не изменится.',
    ],
    button: 'Сбросить пароль',
  },
  UKR: {
    subject: 'Скидання пароля',
    lines: [
      'Ми отримали запит на скидання пароля вашого облікового запису.',
      'Натисніть кнопку нижче, щоб установити новий пароль. Посилання одноразове і незабаром стане недійсним.',
      'Якщо ви не надсилали такого запиту, просто проігноруйте цей лист: ваш пароль не зміниться.',
    ],
    button: 'Скинути пароль',
  },
  ENG: {
    subject: 'Reset your password',
    lines: [
      'We received a request to reset the password of your account.',
      'Use the button below to choose a new password. The link works once and expires soon.',
      'If you did not ask for this, you can ignore this email: your password stays the same.',
    ],
    button: 'Reset password',
  },
  SPA: {
    subject: 'Restablece tu contraseña',
    lines: [
      'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta.',
      'Pulsa el botón de abajo para elegir una contraseña nueva. El enlace solo sirve una vez y caduca pronto.',
      'Si no lo has solicitado, puedes ignorar este correo: tu contraseña no cambiará.',
    ],
    button: 'Restablecer contraseña',
  },
  GERMAN: {
    subject: 'Passwort zurücksetzen',
    lines: [
      'Wir haben eine Anfrage erhalten, das Passwort Ihres Kontos zurückzusetzen.',
      'Klicken Sie auf die Schaltfläche unten, um ein neues Passwort festzulegen. Der Link gilt nur einmal und läuft bald ab.',
      'Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt unverändert.',
    ],
    button: 'Passwort zurücksetzen',
  },
  POL: {
    subject: 'Zresetuj hasło',
    lines: [
      'Otrzymaliśmy prośbę o zresetowanie hasła do Twojego konta.',
      'Kliknij przycisk poniżej, aby ustawić nowe hasło. Link jest jednorazowy i wkrótce wygaśnie.',
      'Jeśli to nie Ty, zignoruj tę wiadomość: Twoje hasło pozostanie bez zmian.',
    ],
    button: 'Zresetuj hasło',
  },
  FRA: {
    subject: 'Réinitialisez votre mot de passe',
    lines: [
      'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte.',
      'Cliquez sur le bouton ci-dessous pour choisir un nouveau mot de passe. Le lien ne sert qu’une fois et expire bientôt.',
      'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail\u00a0: votre mot de passe ne changera pas.',
    ],
    button: 'Réinitialiser le mot de passe',
  },
  TURKEY: {
    subject: 'Şifrenizi sıfırlayın',
    lines: [
      'Hesabınızın şifresini sıfırlamak için bir talep aldık.',
      'Yeni bir şifre belirlemek için aşağıdaki düğmeye tıklayın. Bağlantı yalnızca bir kez kullanılabilir ve kısa süre içinde geçerliliğini yitirir.',
      'Bu talebi siz yapmadıysanız bu e-postayı yok sayabilirsiniz: şifreniz değişmeyecek.',
    ],
    button: 'Şifreyi sıfırla',
  },
};
