import type { Translations } from './types';

/**
 * Sent after POST /sign-in/magic-link (docs/passwordless.md); the link opens the sign-in page, where one click signs
 * in (a mail scanner that only fetches the link spends nothing).
 */
export const magicLink: Translations = {
  RUS: {
    subject: 'Ссылка для входа',
    lines: [
      'Нажмите кнопку ниже, чтобы войти. Ссылка одноразовая и через несколько минут перестанет действовать.',
      'Если вы не запрашивали вход, просто проигнорируйте это письмо.',
    ],
    button: 'Войти',
  },
  UKR: {
    subject: 'Посилання для входу',
    lines: [
      'Натисніть кнопку нижче, щоб увійти. Посилання одноразове і за кілька хвилин стане недійсним.',
      'Якщо ви не просили про вхід, просто проігноруйте цей лист.',
    ],
    button: 'Увійти',
  },
  ENG: {
    subject: 'Your sign-in link',
    lines: [
      'Click the button below to sign in. The link works once and expires in a few minutes.',
      'If you did not ask to sign in, you can ignore this email.',
    ],
    button: 'Sign in',
  },
  SPA: {
    subject: 'Tu enlace para iniciar sesión',
    lines: [
      'Pulsa el botón de abajo para iniciar sesión. El enlace sirve una sola vez y caduca en unos minutos.',
      'Si no has pedido iniciar sesión, puedes ignorar este correo.',
    ],
    button: 'Iniciar sesión',
  },
  GERMAN: {
    subject: 'Ihr Anmeldelink',
    lines: [
      'Klicken Sie auf die Schaltfläche unten, um sich anzumelden. Der Link gilt einmal und läuft in wenigen Minuten ab.',
      'Wenn Sie keine Anmeldung angefordert haben, können Sie diese E-Mail ignorieren.',
    ],
    button: 'Anmelden',
  },
  POL: {
    subject: 'Twój link do logowania',
    lines: [
      'Kliknij przycisk poniżej, aby się zalogować. Link działa jeden raz i wygaśnie za kilka minut.',
      'Jeśli to nie Ty chcesz się zalogować, zignoruj tę wiadomość.',
    ],
    button: 'Zaloguj się',
  },
  FRA: {
    subject: 'Votre lien de connexion',
    lines: [
      'Cliquez sur le bouton ci-dessous pour vous connecter. Le lien ne sert qu’une fois et expire dans quelques minutes.',
      'Si vous n’avez pas demandé à vous connecter, vous pouvez ignorer cet e-mail.',
    ],
    button: 'Se connecter',
  },
  TURKEY: {
    subject: 'Giriş bağlantınız',
    lines: [
      'Giriş yapmak için aşağıdaki düğmeye tıklayın. Bağlantı yalnızca bir kez çalışır ve birkaç dakika içinde geçersiz olur.',
      'Giriş yapmak istemediyseniz bu e-postayı yok sayabilirsiniz.',
    ],
    button: 'Giriş yap',
  },
};
