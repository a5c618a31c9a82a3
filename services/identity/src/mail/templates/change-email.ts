import type { Translations } from './types';

/** Sent to the CURRENT address of a verified user; {newEmail} is where the account would move. */
export const changeEmail: Translations = {
  RUS: {
    subject: 'Подтвердите смену адреса электронной почты',
    lines: [
      'Мы получили запрос на смену адреса электронной почты вашей учётной записи на {newEmail}.',
      'Чтобы подтвердить изменение, нажмите кнопку ниже.',
      'Если вы этого не запрашивали, не переходите по ссылке и смените пароль.',
    ],
    button: 'Подтвердить смену',
  },
  UKR: {
    subject: 'Підтвердьте зміну адреси електронної пошти',
    lines: [
      'Ми отримали запит на зміну адреси електронної пошти вашого облікового запису на {newEmail}.',
      'Щоб підтвердити зміну, натисніть кнопку нижче.',
      'Якщо ви цього не запитували, не переходьте за посиланням і змініть пароль.',
    ],
    button: 'Підтвердити зміну',
  },
  ENG: {
    subject: 'Approve the change of your email address',
    lines: [
      'We received a request to change the email address of your account to {newEmail}.',
      'To approve this change, click the button below.',
      'If you did not ask for this, do not open the link, and consider changing your password.',
    ],
    button: 'Approve change',
  },
  SPA: {
    subject: 'Aprueba el cambio de tu correo electrónico',
    lines: [
      'Hemos recibido una solicitud para cambiar el correo electrónico de tu cuenta a {newEmail}.',
      'Para aprobar el cambio, pulsa el botón de abajo.',
      'Si no lo has solicitado, no abras el enlace y te recomendamos cambiar tu contraseña.',
    ],
    button: 'Aprobar el cambio',
  },
  GERMAN: {
    subject: 'Bestätigen Sie die Änderung Ihrer E-Mail-Adresse',
    lines: [
      'Wir haben eine Anfrage erhalten, die E-Mail-Adresse Ihres Kontos in {newEmail} zu ändern.',
      'Um die Änderung zu bestätigen, klicken Sie auf die Schaltfläche unten.',
      'Wenn Sie das nicht angefordert haben, öffnen Sie den Link nicht und ändern Sie am besten Ihr Passwort.',
    ],
    button: 'Änderung bestätigen',
  },
  POL: {
    subject: 'Potwierdź zmianę adresu e-mail',
    lines: [
      'Otrzymaliśmy prośbę o zmianę adresu e-mail Twojego konta na {newEmail}.',
      'Aby zatwierdzić zmianę, kliknij przycisk poniżej.',
      'Jeśli to nie Ty, nie otwieraj linku i zmień hasło.',
    ],
    button: 'Zatwierdź zmianę',
  },
  FRA: {
    subject: 'Confirmez le changement de votre adresse e-mail',
    lines: [
      'Nous avons reçu une demande pour remplacer l’adresse e-mail de votre compte par {newEmail}.',
      'Pour approuver ce changement, cliquez sur le bouton ci-dessous.',
      'Si vous n’êtes pas à l’origine de cette demande, n’ouvrez pas le lien et changez votre mot de passe.',
    ],
    button: 'Approuver le changement',
  },
  TURKEY: {
    subject: 'E-posta adresi değişikliğini onaylayın',
    lines: [
      'Hesabınızın e-posta adresini {newEmail} olarak değiştirmek için bir talep aldık.',
      'Bu değişikliği onaylamak için aşağıdaki düğmeye tıklayın.',
      'Bu talebi siz yapmadıysanız bağlantıyı açmayın ve şifrenizi değiştirin.',
    ],
    button: 'Değişikliği onayla',
  },
};
