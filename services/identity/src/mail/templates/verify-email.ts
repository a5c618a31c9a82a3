import type { Translations } from './types';

/** Sent at sign-up (or when sign-in needs a verified address); the link verifies the address. */
export const verifyEmail: Translations = {
  RUS: {
    subject: 'Подтвердите адрес электронной почты',
    lines: [
      'Пожалуйста, подтвердите, что это ваш адрес электронной почты: нажмите кнопку ниже.',
      'Если вы не регистрировались, просто проигнорируйте это письмо.',
    ],
    button: 'Подтвердить адрес',
  },
  UKR: {
    subject: 'Підтвердьте адресу електронної пошти',
    lines: [
      'Будь ласка, підтвердьте, що це ваша адреса електронної пошти: натисніть кнопку нижче.',
      'Якщо ви не реєструвалися, просто проігноруйте цей лист.',
    ],
    button: 'Підтвердити адресу',
  },
  ENG: {
    subject: 'Confirm your email address',
    lines: [
      'Please confirm that this is your email address by clicking the button below.',
      'If you did not create an account, you can ignore this email.',
    ],
    button: 'Confirm email address',
  },
  SPA: {
    subject: 'Confirma tu dirección de correo electrónico',
    lines: [
      'Confirma que esta es tu dirección de correo electrónico pulsando el botón de abajo.',
      'Si no has creado ninguna cuenta, puedes ignorar este correo.',
    ],
    button: 'Confirmar dirección',
  },
  GERMAN: {
    subject: 'Bestätigen Sie Ihre E-Mail-Adresse',
    lines: [
      'Bitte bestätigen Sie über die Schaltfläche unten, dass dies Ihre E-Mail-Adresse ist.',
      'Wenn Sie kein Konto erstellt haben, können Sie diese E-Mail ignorieren.',
    ],
    button: 'E-Mail-Adresse bestätigen',
  },
  POL: {
    subject: 'Potwierdź swój adres e-mail',
    lines: [
      'Potwierdź, że to Twój adres e-mail, klikając przycisk poniżej.',
      'Jeśli to nie Ty zakładasz konto, zignoruj tę wiadomość.',
    ],
    button: 'Potwierdź adres e-mail',
  },
  FRA: {
    subject: 'Confirmez votre adresse e-mail',
    lines: [
      'Veuillez confirmer qu’il s’agit bien de votre adresse e-mail en cliquant sur le bouton ci-dessous.',
      'Si vous n’avez pas créé de compte, vous pouvez ignorer cet e-mail.',
    ],
    button: 'Confirmer l’adresse e-mail',
  },
  TURKEY: {
    subject: 'E-posta adresinizi doğrulayın',
    lines: [
      'Lütfen aşağıdaki düğmeye tıklayarak bu e-posta adresinin size ait olduğunu doğrulayın.',
      'Bir hesap oluşturmadıysanız bu e-postayı yok sayabilirsiniz.',
    ],
    button: 'E-posta adresini doğrula',
  },
};
