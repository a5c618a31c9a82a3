import type { Language } from '../jobs';

export { LANGUAGE_TAGS } from '../jobs';

export interface CommonCopy {
  /** Greeting with {name}; `greetingNoName` when the name is empty. */
  greeting: string;
  greetingNoName: string;
  /** Shown above the link printed as text, for clients that do not show the button. */
  linkHint: string;
  footer: string;
}

/** Phrases shared by every kind of mail. */
export const COMMON: Readonly<Record<Language, CommonCopy>> = {
  RUS: {
    greeting: 'Здравствуйте, {name}!',
    greetingNoName: 'Здравствуйте!',
    linkHint: 'Если кнопка не работает, скопируйте эту ссылку в адресную строку браузера:',
    footer: 'Это письмо отправлено автоматически, отвечать на него не нужно.',
  },
  UKR: {
    greeting: 'Вітаємо, {name}!',
    greetingNoName: 'Вітаємо!',
    linkHint: 'Якщо кнопка не працює, скопіюйте це посилання в адресний рядок браузера:',
    footer: 'Цей лист надіслано автоматично, відповідати на нього не потрібно.',
  },
  ENG: {
    greeting: 'Hello {name},',
    greetingNoName: 'Hello,',
    linkHint: 'If the button does not work, copy this link into your browser:',
    footer: 'This email was sent automatically; please do not reply to it.',
  },
  SPA: {
    greeting: 'Hola, {name}:',
    greetingNoName: 'Hola:',
    linkHint: 'Si el botón no funciona, copia este enlace y pégalo en tu navegador:',
    footer: 'Este correo se ha enviado automáticamente; no es necesario que respondas.',
  },
  GERMAN: {
    greeting: 'Hallo {name},',
    greetingNoName: 'Hallo,',
    linkHint: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:',
    footer: 'Diese E-Mail wurde automatisch versendet. Bitte antworten Sie nicht darauf.',
  },
  POL: {
    greeting: 'Dzień dobry, {name},',
    greetingNoName: 'Dzień dobry,',
    linkHint: 'Jeśli przycisk nie działa, skopiuj ten link i wklej go w przeglądarce:',
    footer: 'Ta wiadomość została wysłana automatycznie, prosimy na nią nie odpowiadać.',
  },
  FRA: {
    greeting: 'Bonjour {name},',
    greetingNoName: 'Bonjour,',
    linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u00a0:',
    footer: 'Cet e-mail a été envoyé automatiquement, merci de ne pas y répondre.',
  },
  TURKEY: {
    greeting: 'Merhaba {name},',
    greetingNoName: 'Merhaba,',
    linkHint: 'Düğme çalışmazsa bu bağlantıyı kopyalayıp tarayıcınıza yapıştırın:',
    footer: 'Bu e-posta otomatik olarak gönderilmiştir, lütfen yanıtlamayın.',
  },
};
