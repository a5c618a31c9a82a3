import type { Translations } from './types';

/**
 * Sent after POST /email-otp/send-verification-otp or a reset request by code (docs/passwordless.md): the code to
 * type where it was asked for (sign-in, verification or a new password). The button opens the product, no token.
 */
export const emailOtp: Translations = {
  RUS: {
    subject: 'Ваш код: {code}',
    lines: [
      'Ваш одноразовый код: {code}. Введите его там, где вы его запросили. Он действует несколько минут.',
      'Никому не сообщайте этот код. Если вы его не запрашивали, просто проигнорируйте это письмо.',
    ],
    button: 'Открыть',
  },
  UKR: {
    subject: 'Ваш одноразовий код: {code}',
    lines: [
      'Ваш одноразовий код: {code}. Введіть його там, де ви його запитали. Він діє кілька хвилин.',
      'Нікому не повідомляйте цей код. Якщо ви його не запитували, просто проігноруйте цей лист.',
    ],
    button: 'Відкрити',
  },
  ENG: {
    subject: 'Your code: {code}',
    lines: [
      'Your one-time code is {code}. Enter it where you asked for it. It expires in a few minutes.',
      'Never share this code. If you did not ask for it, you can ignore this email.',
    ],
    button: 'Open',
  },
  SPA: {
    subject: 'Tu código: {code}',
    lines: [
      'Tu código de un solo uso es {code}. Escríbelo donde lo pediste. Caduca en unos minutos.',
      'No compartas este código. Si no lo has pedido, puedes ignorar este correo.',
    ],
    button: 'Abrir',
  },
  GERMAN: {
    subject: 'Ihr Code: {code}',
    lines: [
      'Ihr Einmalcode lautet {code}. Geben Sie ihn dort ein, wo Sie ihn angefordert haben. Er läuft in wenigen Minuten ab.',
      'Geben Sie diesen Code nie weiter. Wenn Sie ihn nicht angefordert haben, können Sie diese E-Mail ignorieren.',
    ],
    button: 'Öffnen',
  },
  POL: {
    subject: 'Twój kod: {code}',
    lines: [
      'Twój jednorazowy kod to {code}. Wpisz go tam, gdzie o niego poproszono. Wygaśnie za kilka minut.',
      'Nikomu nie podawaj tego kodu. Jeśli to nie Ty o niego prosisz, zignoruj tę wiadomość.',
    ],
    button: 'Otwórz',
  },
  FRA: {
    subject: 'Votre code : {code}',
    lines: [
      'Votre code à usage unique est {code}. Saisissez-le là où vous l’avez demandé. Il expire dans quelques minutes.',
      'Ne communiquez jamais ce code. Si vous ne l’avez pas demandé, vous pouvez ignorer cet e-mail.',
    ],
    button: 'Ouvrir',
  },
  TURKEY: {
    subject: 'Kodunuz: {code}',
    lines: [
      'Tek kullanımlık kodunuz {code}. Kodu istediğiniz yere girin. Birkaç dakika içinde geçersiz olur.',
      'Bu kodu kimseyle paylaşmayın. Siz istemediyseniz bu e-postayı yok sayabilirsiniz.',
    ],
    button: 'Aç',
  },
};
