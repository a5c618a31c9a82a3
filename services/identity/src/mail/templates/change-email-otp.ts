import type { Translations } from './types';

/**
 * Sent to the NEW address after POST /email-otp/request-email-change (docs/passwordless.md): the code that moves the
 * signed-in user's account to this address, typed where the change was asked for. The button opens the product, no
 * token. Whoever did not ask keeps the code to themselves and nothing changes.
 */
export const changeEmailOtp: Translations = {
  RUS: {
    subject: 'Подтвердите новый адрес почты: {code}',
    lines: [
      'Ваш код, чтобы сделать этот адрес адресом вашей учётной записи: {code}. Введите его там, где вы запросили смену адреса. Он действует несколько минут.',
      'Никому не сообщайте этот код. Если вы не запрашивали смену адреса, просто проигнорируйте это письмо: ничего не изменится.',
    ],
    button: 'Открыть',
  },
  UKR: {
    subject: 'Підтвердьте нову адресу пошти: {code}',
    lines: [
      'Ваш код, щоб зробити цю адресу адресою вашого облікового запису: {code}. Введіть його там, де ви запитали зміну адреси. Він діє кілька хвилин.',
      'Нікому не повідомляйте цей код. Якщо ви не запитували зміну адреси, просто проігноруйте цей лист: нічого не зміниться.',
    ],
    button: 'Відкрити',
  },
  ENG: {
    subject: 'Confirm your new email address: {code}',
    lines: [
      'Your code to make this the email address of your account is {code}. Enter it where you asked for the change. It expires in a few minutes.',
      'Never share this code. If you did not ask to change your email address, you can ignore this email: nothing changes.',
    ],
    button: 'Open',
  },
  SPA: {
    subject: 'Confirma tu nueva dirección de correo: {code}',
    lines: [
      'Tu código para que esta sea la dirección de correo de tu cuenta es {code}. Escríbelo donde pediste el cambio. Caduca en unos minutos.',
      'No compartas este código. Si no has pedido cambiar tu dirección de correo, puedes ignorar este correo: no cambiará nada.',
    ],
    button: 'Abrir',
  },
  GERMAN: {
    subject: 'Bestätigen Sie Ihre neue E-Mail-Adresse: {code}',
    lines: [
      'Ihr Code, um diese Adresse zur E-Mail-Adresse Ihres Kontos zu machen, lautet {code}. Geben Sie ihn dort ein, wo Sie die Änderung angefordert haben. Er läuft in wenigen Minuten ab.',
      'Geben Sie diesen Code nie weiter. Wenn Sie keine Änderung Ihrer E-Mail-Adresse angefordert haben, können Sie diese E-Mail ignorieren: Es ändert sich nichts.',
    ],
    button: 'Öffnen',
  },
  POL: {
    subject: 'Potwierdź nowy adres e-mail: {code}',
    lines: [
      'Twój kod, aby ten adres stał się adresem e-mail Twojego konta, to {code}. Wpisz go tam, gdzie poproszono o zmianę. Wygaśnie za kilka minut.',
      'Nikomu nie podawaj tego kodu. Jeśli nie prosisz o zmianę adresu e-mail, zignoruj tę wiadomość: nic się nie zmieni.',
    ],
    button: 'Otwórz',
  },
  FRA: {
    subject: 'Confirmez votre nouvelle adresse e-mail : {code}',
    lines: [
      'Votre code pour faire de cette adresse celle de votre compte est {code}. Saisissez-le là où vous avez demandé le changement. Il expire dans quelques minutes.',
      'Ne communiquez jamais ce code. Si vous n’avez pas demandé à changer d’adresse e-mail, vous pouvez ignorer cet e-mail : rien ne change.',
    ],
    button: 'Ouvrir',
  },
  TURKEY: {
    subject: 'Yeni e-posta adresinizi onaylayın: {code}',
    lines: [
      'Bu adresi hesabınızın e-posta adresi yapmak için kodunuz {code}. Kodu değişikliği istediğiniz yere girin. Birkaç dakika içinde geçersiz olur.',
      'Bu kodu kimseyle paylaşmayın. E-posta adresinizi değiştirmek istemediyseniz bu e-postayı yok sayabilirsiniz: hiçbir şey değişmez.',
    ],
    button: 'Aç',
  },
};
